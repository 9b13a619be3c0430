/**
 * The export's `filter=EXPR`: the dashboard's filter language (parseFilter/compileFilter from
 * @mcpscope/protocol), compiled once into the predicate FrameSource selects exchanges with. One
 * language, one implementation, for the timeline, the API and the CLI.
 */
import { compileDoorFilter, compileFilter as compileProtocolFilter, parseFilter, type DoorPredicate } from '@mcpscope/protocol';
import type { ExchangePredicate } from './capture-reader.js';

/** `requests` selects door records (HTTP requests at the tap) with the same filter. */
export type CompiledFilter = { ok: true; predicate?: ExchangePredicate; requests?: DoorPredicate } | { ok: false; message: string };

export function compileFilter(text: string | undefined): CompiledFilter {
  if (text === undefined || text.trim() === '') return { ok: true };
  const parsed = parseFilter(text);
  if (!parsed.ok) {
    const { message, position } = parsed.error;
    return { ok: false, message: `filter "${text}": ${message} (at position ${position})` };
  }
  if (parsed.filter === null) return { ok: true };
  const predicate = compileProtocolFilter(parsed.filter);
  return {
    ok: true,
    predicate: (ex, session, bodyText, diagnosticCodes) => predicate(ex, { ...(session ? { session } : {}), bodyText, diagnosticCodes }),
    requests: compileDoorFilter(parsed.filter),
  };
}
