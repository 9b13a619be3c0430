/** The status legend: every badge with what it means. Generated from STATUS_LOOKS. */
import { EXCHANGE_STATUSES } from '@mcpscope/protocol';
import { STATUS_LOOKS } from './status.js';

export function Legend({ onClose }: { onClose: () => void }) {
  return (
    <div className="popover legend" role="dialog" aria-label="Status legend" data-testid="legend">
      <header>
        <strong>Status legend</strong>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close legend">✕</button>
      </header>
      <dl>
        {EXCHANGE_STATUSES.map((status) => {
          const look = STATUS_LOOKS[status];
          return (
            <div key={status} className="legend-item">
              <dt>
                <span className={`badge tone-${look.tone}`}>
                  <span className="badge-icon" aria-hidden="true">{look.icon}</span>
                  <span className="badge-text">{look.label}</span>
                </span>
              </dt>
              <dd>{look.meaning}</dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}
