/**
 * The export's `filter=EXPR`: the dashboard's filter language, compiled into the predicate
 * FrameSource selects exchanges with. One language for the timeline, the API and the CLI.
 */
import type { ExchangePredicate } from './frame-source.js';

export type CompiledFilter = { ok: true; predicate?: ExchangePredicate } | { ok: false; message: string };

export function compileFilter(text: string | undefined): CompiledFilter {
  if (text === undefined || text.trim() === '') return { ok: true };
  // The filter language lands in @mcpscope/protocol with the protocol branch; until then a
  // filtered export is refused rather than silently exporting everything.
  return { ok: false, message: 'filtered export needs the filter language, which this build does not have yet' };
}
