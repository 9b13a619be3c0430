/** The sessions sidebar: every session with its client, server, revision, capabilities and counts. */
import { useDoor } from '../store/door-store.js';
import { shortSessionKey } from '../ui/short-key.js';
import { EXCHANGE_STATUSES, ownSessionKind, type SessionSummary } from '@mcpscope/protocol';
import { useLive } from '../store/live-store.js';
import { useExchangeTotal } from '../store/exchange-total.js';
import { useUi } from '../store/ui-store.js';
import { STATUS_LOOKS } from '../ui/status.js';
import { capabilityNames, clientName, serverName, totalCount } from './session-facts.js';

function Counts({ counts }: { counts: SessionSummary['counts'] }) {
  return (
    <span className="counts">
      {EXCHANGE_STATUSES.filter((s) => (counts[s] ?? 0) > 0).map((s) => (
        <span key={s} className={`count tone-${STATUS_LOOKS[s].tone}`} title={STATUS_LOOKS[s].label}>
          <span aria-hidden="true">{STATUS_LOOKS[s].icon}</span> {counts[s]}
          <span className="sr-only"> {STATUS_LOOKS[s].label}</span>
        </span>
      ))}
    </span>
  );
}

/** Where a scrolled list draws an item (SessionList.tsx): its top, its height and its 1-based position. */
export interface ItemPlace {
  top: number;
  height: number;
  position: number;
}

export function SessionItem({ s, active, place }: { s: SessionSummary; active: boolean; place?: ItemPlace }) {
  const server = serverName(s);
  const clientCaps = capabilityNames(s.clientCapabilities);
  const serverCaps = capabilityNames(s.serverCapabilities);
  const closed = useDoor((d) => d.endedSessions.has(s.sessionKey));
  const own = ownSessionKind(s);
  return (
    <li {...(place ? { className: 'placed', style: { top: place.top, height: place.height }, 'aria-posinset': place.position } : {})}>
      <button
        type="button"
        className={`session${active ? ' active' : ''}`}
        aria-pressed={active}
        data-testid="session-item"
        onClick={() => useUi.getState().setSession(active ? undefined : s.sessionKey)}
      >
        <span className="session-client">
          {own?.kind === 'replay' && (
            <span className="muted" data-testid="session-replay" title="A fresh session mcpscope opened for a replay, initialized with the captured client's clientInfo and capabilities">
              ↻ replay as{' '}
            </span>
          )}
          {own?.kind === 'labelled' ? (
            <span data-testid="session-own" title={`A session mcpscope opened itself (${own.label}); it is part of no client's conversation`}>
              ⧉ mcpscope {own.label}
            </span>
          ) : (
            clientName(s)
          )}
          {(s.ended || closed) && <span className="muted" data-testid="session-ended" title="The client ended this session (DELETE): a replay into it will be refused"> (ended)</span>}
          {s.expired && <span className="muted" title="The server answered a request on it as a session it no longer knows"> (gone)</span>}
        </span>
        <span className="session-line muted">
          {server ? `→ ${server}` : s.transport} {s.protocolVersion && <span className="rev">{s.protocolVersion}</span>}
        </span>
        <span className="session-line muted mono" title={s.sessionKey}>{shortSessionKey(s.sessionKey, 18)}</span>
        {(clientCaps.length > 0 || serverCaps.length > 0) && (
          <span className="session-line caps" title={`client: ${clientCaps.join(', ') || 'none'}\nserver: ${serverCaps.join(', ') || 'none'}`}>
            {serverCaps.length > 0 && <>server: {serverCaps.join(' · ')}</>}
            {clientCaps.length > 0 && (
              <>
                <br />
                client: {clientCaps.join(' · ')}
              </>
            )}
          </span>
        )}
        <Counts counts={s.counts} />
      </button>
    </li>
  );
}

export function SessionsSidebar() {
  const sessions = useLive((s) => s.sessions);
  const total = useExchangeTotal();
  const chosen = useUi((s) => s.session);
  // Newest session first, by start time: an order that does not reshuffle on every update.
  const list = [...sessions.values()].sort((a, b) => b.firstTs - a.firstTs);
  return (
    <nav className="sidebar" aria-label="Sessions" data-testid="sessions">
      <h2>Sessions</h2>
      <ul>
        <li>
          <button type="button" className={`session${chosen ? '' : ' active'}`} aria-pressed={!chosen} onClick={() => useUi.getState().setSession(undefined)}>
            <span className="session-client">All sessions</span>
            <span className="session-line muted">
              {list.length} session{list.length === 1 ? '' : 's'} · {total} exchange{total === 1 ? '' : 's'}
            </span>
          </button>
        </li>
        {list.map((s) => (
          <SessionItem key={s.sessionKey} s={s} active={s.sessionKey === chosen} />
        ))}
        {list.length > 0 && list.every((s) => totalCount(s) === 0) && <li className="muted hint">No exchanges yet.</li>}
      </ul>
    </nav>
  );
}
