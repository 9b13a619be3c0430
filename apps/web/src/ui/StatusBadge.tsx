/** A status badge: icon and word (never colour alone); pending ones show a running timer. */
import type { ExchangeSummary } from '@mcpscope/protocol';
import { useNow } from '../lib/now.js';
import { formatDuration, lookOf, statusText } from './status.js';

function PendingTimer({ since }: { since: number }) {
  const now = useNow();
  return <span className="timer">{formatDuration(Math.max(0, now - since))}</span>;
}

export function StatusBadge({ ex }: { ex: Pick<ExchangeSummary, 'status' | 'errorCode' | 'errorMessage' | 'startTs' | 'transportEvent' | 'brokeHostRules'> }) {
  const look = lookOf(ex);
  const title = ex.errorMessage ? `${look.meaning}\n${ex.errorMessage}` : look.meaning;
  return (
    <span className={`badge tone-${look.tone}`} data-testid="status-badge" data-status={ex.status} {...(ex.transportEvent ? { 'data-event': ex.transportEvent } : {})} {...(ex.brokeHostRules ? { 'data-broke': ex.brokeHostRules } : {})} title={title}>
      <span className="badge-icon" aria-hidden="true">{look.icon}</span>
      <span className="badge-text">{statusText(ex)}</span>
      {ex.status === 'pending' && <PendingTimer since={ex.startTs} />}
    </span>
  );
}
