/**
 * Actions on the open exchange. Replay (client→server requests only, `canReplay`) opens the
 * replay panel (apps/web/src/replay) on this exchange.
 */
import { isImportedSession, type ExchangeSummary } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { CopyButton } from '../ui/CopyButton.js';
import { useReplayTarget } from '../replay/replay-host.js';
import { CopyAsCurl, EvidenceButton } from '../export/index.js';
import { READ_ONLY_HINT, useReadOnly } from '../store/read-only.js';
import { useCompare } from '../compare/index.js';

export function canReplay(ex: ExchangeSummary): boolean {
  return ex.kind === 'request' && ex.requester === 'client' && ex.requestSeq !== undefined;
}

/** Why the evidence pack cannot replay this exchange to the live server; undefined when it can. */
function noControlReplay(ex: ExchangeSummary, readOnly: boolean): string | undefined {
  if (readOnly) return 'No live server: this dashboard shows a file.';
  if (isImportedSession(ex.sessionKey)) return 'This session was imported from a file: nothing is sent for it.';
  if (!canReplay(ex)) return 'Only a client\'s request can be replayed.';
  if (ex.status === 'ok' || ex.status === 'pending') return 'This call did not fail.';
  return undefined;
}

const withNoReplay = (why: string | undefined) => (why === undefined ? {} : { noReplay: why });

export function DetailActions({ api, ex, requestRaw, onClose }: { api: ApiClient; ex: ExchangeSummary; requestRaw: string | undefined; onClose: () => void }) {
  const readOnly = useReadOnly((s) => s.file !== undefined);
  const picked = useCompare((s) => s.picked.includes(ex.id));
  return (
    <div className="actions">
      {canReplay(ex) && (
        <button type="button" data-testid="replay-button" disabled={readOnly} title={readOnly ? READ_ONLY_HINT : 'Edit this request and send it again'} onClick={() => useReplayTarget.getState().open(ex.id)}>
          Edit &amp; replay
        </button>
      )}
      {canReplay(ex) && requestRaw !== undefined && <CopyButton label="Copy request" text={requestRaw} />}
      {canReplay(ex) && <CopyAsCurl api={api} exchangeId={ex.id} />}
      <EvidenceButton api={api} target={{ exchange: ex.id }} {...withNoReplay(noControlReplay(ex, readOnly))} />
      <button type="button" className="ghost" data-testid="compare-pick" aria-pressed={picked} title="Pick this exchange and another (or ctrl/⌘-click rows), then Compare" onClick={() => useCompare.getState().toggle(ex.id)}>
        {picked ? 'Unpick' : 'Pick to compare'}
      </button>
      <CopyButton label="Copy link" text={() => window.location.href} />
      <button type="button" className="ghost" onClick={onClose} aria-label="Close detail (Esc)" title="Close (Esc)" data-testid="close-detail">
        ✕
      </button>
    </div>
  );
}
