/**
 * Actions on the open exchange. The Replay button (client→server requests only, `canReplay`)
 * opens the replay module (apps/web/src/replay, `ReplayPanel({ api, exchangeId, onClose })`),
 * which the lead wires in here at merge time, beside the actions that need nothing more.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { CopyButton } from './CopyButton.js';
import { openReplay } from '../replay/index.js';

export function canReplay(ex: ExchangeSummary): boolean {
  return ex.kind === 'request' && ex.requester === 'client' && ex.requestSeq !== undefined;
}

export function DetailActions({ ex, requestRaw, onClose }: { api: ApiClient; ex: ExchangeSummary; requestRaw: string | undefined; onClose: () => void }) {
  return (
    <div className="actions">
      {canReplay(ex) && (
        <button type="button" data-testid="replay-button" onClick={() => openReplay(ex.id)} title="Edit this request and send it again">
          Replay
        </button>
      )}
      {canReplay(ex) && requestRaw !== undefined && <CopyButton label="Copy request" text={requestRaw} />}
      <CopyButton label="Copy link" text={() => window.location.href} />
      <button type="button" className="ghost" onClick={onClose} aria-label="Close detail (Esc)" title="Close (Esc)" data-testid="close-detail">
        ✕
      </button>
    </div>
  );
}
