/**
 * The filter bar's text, read for door records: the one filter language (`http.path:`,
 * `http.status:`, `http.method:`, `kind:http|probe` …), parsed and matched by the protocol
 * package, described as a filter on HTTP requests.
 */
import { compileDoorFilter, describeFilter, parseFilter, type DoorPredicate, type FilterError } from '@mcpscope/protocol';

export interface DoorFilter {
  predicate: DoorPredicate;
  description?: string;
  error?: FilterError;
}

export function buildDoorFilter(text: string): DoorFilter {
  const parsed = parseFilter(text);
  if (!parsed.ok) return { predicate: () => true, error: parsed.error };
  if (parsed.filter === null) return { predicate: () => true };
  return { predicate: compileDoorFilter(parsed.filter), description: describeFilter(parsed.filter, 'requests') };
}
