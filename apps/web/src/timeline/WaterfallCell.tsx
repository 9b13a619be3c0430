/**
 * One row's bar in the waterfall column, on the scale of the rows in view (Timeline provides it):
 * request to answer, ticks where progress came, striped while still waiting, a dot for a
 * notification. The numbers are in the tooltip; nothing the server sent is rendered here.
 */
import { createContext, useContext } from 'react';
import { ERROR_STATUSES, type ExchangeSummary } from '@mcpscope/protocol';
import { formatDuration } from '../ui/status.js';
import { waterfallBar, type WaterfallScale } from './waterfall.js';

export const WaterfallScaleContext = createContext<WaterfallScale | undefined>(undefined);

const failed = new Set<string>(ERROR_STATUSES);

function tooltip(ex: ExchangeSummary, scale: WaterfallScale): string {
  const start = `+${formatDuration(ex.startTs - scale.t0)} into the rows in view`;
  if (ex.kind !== 'request') return `${start} (a notification)`;
  const took = ex.latencyMs !== undefined ? `, answered in ${formatDuration(ex.latencyMs)}` : ex.status === 'pending' ? ', still waiting' : '';
  const progress = ex.progressAt?.length ? `, ${ex.progressAt.length} progress notification${ex.progressAt.length === 1 ? '' : 's'}` : '';
  return `${start}${took}${progress}`;
}

export function WaterfallCell({ ex }: { ex: ExchangeSummary }) {
  const scale = useContext(WaterfallScaleContext);
  if (!scale) return null;
  const bar = waterfallBar(ex, scale);
  const kind = bar.point ? 'point' : bar.open ? 'open' : failed.has(ex.status) ? 'failed' : 'done';
  return (
    <span className="wf" title={tooltip(ex, scale)} data-testid="waterfall" data-left={bar.left.toFixed(1)} data-width={bar.width.toFixed(1)} data-ticks={bar.ticks.length}>
      <span className={`wf-bar wf-${kind}`} style={{ left: `${bar.left}%`, width: bar.point ? undefined : `${bar.width}%` }} />
      {bar.ticks.map((t, i) => (
        <span key={i} className="wf-tick" data-testid="waterfall-tick" style={{ left: `${t}%` }} />
      ))}
    </span>
  );
}
