/**
 * The waterfall column's geometry, pure: one time scale for the rows in view (the earliest start
 * to the latest moment any of them reached), and each exchange's bar on it in percent. Computed
 * for the rendered rows only (about forty), so it costs nothing per captured row.
 *
 * A pending exchange's bar runs to the scale's end (open-ended), never to the wall clock: a file
 * opened days later must not squash every other bar into a sliver.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';

export interface WaterfallScale {
  t0: number;
  t1: number;
}

export interface WaterfallBar {
  /** Percent of the scale. */
  left: number;
  width: number;
  /** Progress notifications, in percent of the scale. */
  ticks: number[];
  /** Still waiting for its answer: the bar runs to the scale's end. */
  open: boolean;
  /** A notification: a moment, not a span. */
  point: boolean;
}

type Timed = Pick<ExchangeSummary, 'kind' | 'status' | 'startTs' | 'endTs' | 'progressAt'>;

/** The latest moment the exchange is known to have reached. */
function reached(ex: Timed): number {
  let latest = ex.endTs ?? ex.startTs;
  for (const at of ex.progressAt ?? []) latest = Math.max(latest, ex.startTs + at);
  return latest;
}

export function waterfallScale(rows: readonly Timed[]): WaterfallScale | undefined {
  if (rows.length === 0) return undefined;
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const ex of rows) {
    t0 = Math.min(t0, ex.startTs);
    t1 = Math.max(t1, reached(ex));
  }
  // One millisecond at least, so a lone row or rows of one instant still draw.
  return { t0, t1: Math.max(t1, t0 + 1) };
}

export function waterfallBar(ex: Timed, scale: WaterfallScale): WaterfallBar {
  const span = scale.t1 - scale.t0;
  const pct = (t: number) => Math.min(100, Math.max(0, ((t - scale.t0) / span) * 100));
  const left = pct(ex.startTs);
  const open = ex.kind === 'request' && ex.status === 'pending';
  const end = open ? scale.t1 : reached(ex);
  return {
    left,
    width: pct(end) - left,
    ticks: (ex.progressAt ?? []).map((at) => pct(ex.startTs + at)),
    open,
    point: ex.kind !== 'request',
  };
}
