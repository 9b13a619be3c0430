/**
 * The legend: every status badge with what it means (generated from STATUS_LOOKS), then the
 * other marks a row can carry (the Dir column's arrows and dash, the diagnostics count).
 */
import { EXCHANGE_STATUSES } from '@mcpscope/protocol';
import { AUTHORIZATION_LOOK, REJECTED_LOOK, STATUS_LOOKS, type StatusLook } from '../ui/status.js';

/** Every badge a row can show: one per status, then the two that refine a status. */
const BADGE_LOOKS: [string, StatusLook][] = [...EXCHANGE_STATUSES.map((s): [string, StatusLook] => [s, STATUS_LOOKS[s]]), ['authorization', AUTHORIZATION_LOOK], ['rejected', REJECTED_LOOK]];

const OTHER_MARKS: [string, string][] = [
  ['C → S', 'Dir: sent by the client to the server (a request, or a notification in italics)'],
  ['S → C', 'Dir: sent by the server to the client (sampling, elicitation, roots, or a notification in italics)'],
  ['—', 'Dir: no direction to show, the bytes were not a JSON-RPC message'],
  ['△ N', 'Diag: N protocol diagnostics on this exchange (schema, pairing or header problems); open the row to read them'],
  ['↻', 'a replay of another exchange; click to open the original'],
  ['⚡ action', 'an intercept rule acted on this exchange (paused, delayed, failed or changed it): not plain traffic; hover for the rule, open the row for the original beside what was delivered'],
  ['▬ ╎', 'Waterfall: a bar from request to answer on one time scale for the rows in view (side by side = at once); ticks are progress notifications, a striped bar still waits, a dot is a notification'],
  ['▸ ‖ ▶', 'a line across the timeline: a mark you dropped, or where capture was paused and resumed (frames in between were not stored)'],
  ['Ctrl/⌘-click', 'picks a row to compare; pick two, then Compare diffs their requests and answers'],
];

export function Legend({ onClose }: { onClose: () => void }) {
  return (
    <div className="popover legend" role="dialog" aria-label="Status legend" data-testid="legend">
      <header>
        <strong>Status legend</strong>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close legend">✕</button>
      </header>
      <dl>
        {BADGE_LOOKS.map(([status, look]) => {
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
      <strong className="legend-section">Other marks</strong>
      <dl data-testid="legend-marks">
        {OTHER_MARKS.map(([mark, meaning]) => (
          <div key={mark} className="legend-item">
            <dt><code>{mark}</code></dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
