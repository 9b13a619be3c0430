/**
 * Actions on the open exchange. Replay (client→server requests only, `canReplay`) opens the
 * replay panel (apps/web/src/replay) on this exchange.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { CopyButton } from '../ui/CopyButton.js';
import { useReplayTarget } from '../replay/replay-host.js';
import { CopyAsCurl } from '../export/index.js';
import { READ_ONLY_HINT, useReadOnly } from '../store/read-only.js';
import { useCompare } from '../compare/index.js';

export function canReplay(ex: ExchangeSummary): boolean {
  return ex.kind === 'request' && ex.requester === 'client' && ex.requestSeq !== undefined;
}

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
