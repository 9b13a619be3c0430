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
  description?: string;
  error?: FilterError;
}

export function buildDoorFilter(text: string): DoorFilter {
  const parsed = parseFilter(text);
  if (!parsed.ok) return { predicate: () => true, error: parsed.error };
  if (parsed.filter === null) return { predicate: () => true };
  const foreign = fieldsDoorCannotMatch(parsed.filter);
  if (foreign.length > 0) {
    const names = foreign.map((f) => `${f}:`).join(', ');
    return { predicate: () => true, description: `every request (not applied here: ${names} ${foreign.length === 1 ? 'filters' : 'filter'} exchanges, not HTTP requests)` };
  }
  return { predicate: compileDoorFilter(parsed.filter), description: describeFilter(parsed.filter, 'requests') };
}
