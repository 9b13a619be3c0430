/** One session in the sidebar's lists: its client, server, revision, capabilities and counts; a click chooses it. */
import { useDoor } from '../store/door-store.js';
import { shortSessionKey } from '../ui/short-key.js';
import { EXCHANGE_STATUSES, ownSessionKind, type SessionSummary } from '@mcpscope/protocol';
import { useUi } from '../store/ui-store.js';
import { STATUS_LOOKS } from '../ui/status.js';
import { capabilityNames, clientName, serverName } from './session-facts.js';

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
