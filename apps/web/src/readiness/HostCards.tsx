/**
 * One card per host: ready, or how many checks fail there and which (what breaks), with the
 * warnings counted apart. A card is also the host filter: clicking it shows that host's checks.
 */
import type { CheckResult, HostId, HostReadiness } from '@mcpscope/protocol';
import { HOST_LABEL, hostSummary } from './readiness-model.js';

export function HostCards({ hosts, checks, chosen, onChoose }: { hosts: readonly HostReadiness[]; checks: readonly CheckResult[]; chosen: HostId | undefined; onChoose(host: HostId | undefined): void }) {
  const titleOf = (id: string) => checks.find((c) => c.id === id)?.title ?? id;
  return (
    <div className="host-cards" role="group" aria-label="Readiness per host">
      {hosts.map((h) => (
        <button
          key={h.host}
          type="button"
          className={`host-card${h.ready ? ' ready' : ' broken'}${chosen === h.host ? ' on' : ''}`}
          data-testid="host-card"
          data-host={h.host}
          data-ready={h.ready}
          aria-pressed={chosen === h.host}
          title={chosen === h.host ? 'Show the checks of every host' : `Show only the checks that affect ${h.name}`}
          onClick={() => onChoose(chosen === h.host ? undefined : h.host)}
        >
          <span className="host-name">{HOST_LABEL[h.host] ?? h.name}</span>
          <span className={`host-summary ${h.ready ? 'tone-ok' : 'tone-error'}`} data-testid="host-summary">
            {hostSummary(h)}
          </span>
          {h.warnings.length > 0 && <span className="host-warnings tone-warn">{h.warnings.length} warning{h.warnings.length === 1 ? '' : 's'}</span>}
          {h.failing.length > 0 && (
            <ul className="host-breaks">
              {h.failing.map((id) => (
                <li key={id}>{titleOf(id)}</li>
              ))}
            </ul>
          )}
        </button>
      ))}
    </div>
  );
}
