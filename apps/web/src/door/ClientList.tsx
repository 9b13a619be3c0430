/**
 * The clients the door saw, newest first, each with its verdict ("connected", "failed", "probed
 * only", "not connected"): choosing one shows its connection flow. "Every request" shows the
 * door records as a table instead. A filter keeps the clients with at least one matching request.
 */
import type { ConnectionFlow } from '@mcpscope/protocol';
import { useDoor } from '../store/door-store.js';
import { useUi } from '../store/ui-store.js';
import { VERDICT_LOOKS, clockTime } from './door-looks.js';

export function VerdictBadge({ flow }: { flow: ConnectionFlow }) {
  const look = VERDICT_LOOKS[flow.verdict.kind];
  return (
    <span className={`badge tone-${look.tone}`} data-testid="verdict" data-verdict={flow.verdict.kind} title={flow.verdict.sentence}>
      <span aria-hidden="true">{look.icon}</span> {look.word}
    </span>
  );
}

export function ClientList({ flows, chosen, total, shown }: { flows: ConnectionFlow[]; chosen: string | undefined; total: number; shown: number }) {
  const choose = (key: string | undefined) => useDoor.getState().chooseClient(key);
  return (
    <nav className="door-clients" aria-label="Clients at the door" data-testid="door-clients">
      <h2>Clients</h2>
      <ul>
        <li>
          <button type="button" className={`session${chosen === '' ? ' active' : ''}`} aria-pressed={chosen === ''} data-testid="all-requests" onClick={() => choose('')}>
            <span className="session-client">Every request</span>
            <span className="session-line muted">
              {shown === total ? `${total}` : `${shown} of ${total}`} HTTP request{total === 1 ? '' : 's'} at the door
            </span>
          </button>
        </li>
        {flows.map((f) => (
          <li key={f.clientKey}>
            <button
              type="button"
              className={`session${chosen === f.clientKey ? ' active' : ''}`}
              aria-pressed={chosen === f.clientKey}
              data-testid="client-item"
              data-client={f.clientKey}
              data-verdict={f.verdict.kind}
              data-sessions={f.sessions}
              title={f.verdict.sentence}
              onClick={() => choose(f.clientKey)}
            >
              <span className="session-client client-head">
                <span className="client-label">{f.label}</span>
                <VerdictBadge flow={f} />
              </span>
              {f.userAgent && <span className="session-line muted mono">{f.userAgent}</span>}
              <span className="session-line muted">
                {clockTime(f.firstTs)} · {f.records} request{f.records === 1 ? '' : 's'}
                {f.sessions > 1 && ` · ${f.sessions} sessions`}
                {f.probes > 0 && ` · ${f.probes} probe${f.probes === 1 ? '' : 's'}`}
              </span>
            </button>
          </li>
        ))}
        {flows.length === 0 && total === 0 && <li className="muted hint">No HTTP request has reached the tap yet.</li>}
        {flows.length === 0 && total > shown && (
          <li className="muted hint" data-testid="door-hidden-by-filter">
            {total - shown} HTTP request{total - shown === 1 ? '' : 's'} hidden by the filter —{' '}
            <button type="button" className="link" onClick={() => useUi.getState().setFilter('')}>clear</button>
          </li>
        )}
      </ul>
    </nav>
  );
}
