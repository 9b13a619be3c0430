/**
 * The filter bar's text, read for door records: the one filter language (`http.path:`,
 * `http.status:`, `http.method:`, `kind:http|probe` …), parsed and matched by the protocol
 * package, described as a filter on HTTP requests. A filter with a field only exchanges have
 * (`method:`, `tool:` …, typically carried over from the Exchanges view) is not applied here: it
 * would match no request, and an empty list would read as "nothing arrived". The description says so.
 */
import { compileDoorFilter, describeFilter, fieldsDoorCannotMatch, parseFilter, type DoorPredicate, type FilterError } from '@mcpscope/protocol';

export interface DoorFilter {
  predicate: DoorPredicate;
  /** The filter's text as the server applies it to door records ('' when it applies none here). */
  applied: string;
  description?: string;
  error?: FilterError;
}

export function buildDoorFilter(text: string): DoorFilter {
  const parsed = parseFilter(text);
  if (!parsed.ok) return { predicate: () => true, applied: '', error: parsed.error };
  if (parsed.filter === null) return { predicate: () => true, applied: '' };
  const foreign = fieldsDoorCannotMatch(parsed.filter);
  if (foreign.length > 0) {
    const names = foreign.map((f) => `${f}:`).join(', ');
    return { predicate: () => true, applied: '', description: `every request (not applied here: ${names} ${foreign.length === 1 ? 'filters' : 'filter'} exchanges, not HTTP requests)` };
  }
  return { predicate: compileDoorFilter(parsed.filter), applied: text, description: describeFilter(parsed.filter, 'requests') };
}
