/**
 * The detail's causality facts: for a server→client request, the tools/call it was sent during;
 * for a call, the requests its server sent the client meanwhile. Each link says how it is known:
 * exactly (the request rode on the call's POST answer stream) or by time (the call was open when
 * the request was sent, which is all stdio or the GET stream can tell).
 */
import type { ExchangeDetail } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useUi } from '../store/ui-store.js';
import { useCausalLinks, type CausalView } from './use-causal-links.js';

const BASIS_TEXT = {
  stream: 'exact: it rode on the call’s POST answer stream',
  overlap: 'by time: the call was open when the request was sent (it did not ride on a call’s stream)',
} as const;

function Link({ link }: { link: CausalView['links'][number] }) {
  const { ex, basis } = link;
  return (
    <span className="causal-link" data-testid="causal-link" data-basis={basis} data-id={ex.id}>
      <button type="button" className="link" title={`Select #${ex.id}`} onClick={() => useUi.getState().select(ex.id, true)}>
        #{ex.id} {ex.method}{ex.target ? ` ${ex.target}` : ''}
      </button>{' '}
      <span className="muted">({basis === 'stream' ? 'on its stream' : 'by time overlap'})</span>
    </span>
  );
}

export function CausalLinks({ api, detail }: { api: ApiClient; detail: ExchangeDetail }) {
  const view = useCausalLinks(api, detail);
  if (!view) return null;
  if (view.role === 'caused' && view.links.length === 0) return null;
  const title = view.links.map((l) => `#${l.ex.id}: ${BASIS_TEXT[l.basis]}`).join('\n');
  return (
    <>
      <dt>{view.role === 'caused-by' ? 'sent during' : 'server asked'}</dt>
      <dd data-testid={view.role === 'caused-by' ? 'detail-caused-by' : 'detail-caused'} title={title}>
        {view.links.map((l) => <Link key={l.ex.id} link={l} />)}
        {view.role === 'caused-by' && view.links.length === 0 && (
          <span className="muted">{view.onPostStream ? 'no tools/call: it rode on the answer stream of another request' : 'no tools/call of this session was open when it was sent'}</span>
        )}
        {view.links.some((l) => l.basis === 'overlap') && <div className="muted causal-note" data-testid="causal-overlap-note">By time: the server did not send it on a call’s stream, so the link is the call open then, not a certainty.</div>}
      </dd>
    </>
  );
}
