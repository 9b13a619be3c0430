/**
 * A filter's SQL for the window's scans (capture-window.ts), which read the exchanges a range of
 * sort keys at a time: free text reads the bodies of that range's frames in one pass (frames in
 * seq order, each linked to its exchanges by frame_exchanges) instead of looking up each row's
 * frames by its summary, one JSON list and one lookup per body.
 *
 * Exact for the rows of the range `[from, end)`: an exchange's frames are the frame that made its
 * row (seq = its sort key, rounded down) and later frames, each of which set its `updated_seq`
 * (pairing/exchange-tracker.ts). A row whose `updated_seq` is below `end` has every frame in
 * `[floor(from), end)`, so the range's pass holds them; the others (answered after the range's
 * end) read their bodies one by one, as filter-sql.ts does for any row.
 */
import type { Filter } from '@mcpscope/protocol';
import { anyOf, fieldToSql, frameContains, pushDown, rowBodiesContain, textNeedle, type FrameColumns, type SqlFilter } from './filter-sql.js';
import { containsSql } from './text-sql.js';

/** Stand-ins for the range's bounds among a ranged filter's parameters (bindRange fills them). */
export const FRAMES_FROM = Symbol('the first frame of the range');
export const RANGE_END = Symbol('the end of the range');
export type RangedParam = string | number | typeof FRAMES_FROM | typeof RANGE_END;

const X = 'exchanges.';

/** The filter's SQL for a query over the exchanges of one range, or undefined when SQL cannot narrow it. */
export function rangedFilterSql(filter: Filter | null, frames: FrameColumns): SqlFilter<RangedParam> | undefined {
  return pushDown<RangedParam>(filter, fieldToSql, (value) => {
    const needle = textNeedle(value);
    if (needle === undefined) return undefined;
    const frame = frameContains(needle, frames);
    const inRange: { sql: string; params: RangedParam[] } = {
      sql: `${X}sort_key IN (SELECT te.sort_key FROM frames tf CROSS JOIN frame_exchanges tfe ON tfe.frame_seq = tf.seq CROSS JOIN exchanges te ON te.id = tfe.exchange_id WHERE tf.seq >= ? AND tf.seq < ? AND ${frame.sql})`,
      params: [FRAMES_FROM, RANGE_END, ...frame.params],
    };
    const late = rowBodiesContain(needle, frames);
    const answeredLater: { sql: string; params: RangedParam[] } = { sql: `(${X}updated_seq >= ? AND ${late.sql})`, params: [RANGE_END, ...late.params] };
    return anyOf<RangedParam>([containsSql(`${X}method`, needle), containsSql(`${X}target`, needle), inRange, answeredLater]);
  });
}

/** A ranged filter's parameters for the rows with sort keys in `[from, end)`. */
export function bindRange(params: readonly RangedParam[], from: number, end: number): (string | number)[] {
  return params.map((p) => (p === FRAMES_FROM ? Math.floor(from) : p === RANGE_END ? end : p));
}
