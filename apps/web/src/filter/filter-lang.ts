/**
 * The dashboard's one door to the filter language of @mcpscope/protocol (one grammar, shared
 * with the API): parse, describe, match, and the operator registry for help and autocomplete.
 * Also turns the filter text plus the chosen session into the predicate the view runs.
 */
import type { ExchangeSummary, SessionSummary } from '@mcpscope/protocol';
import * as protocol from '@mcpscope/protocol';
import { matchAll, type ExchangePredicate } from '../store/view-index.js';

// INTERIM (until the protocol branch's filter module is merged): the contract's types, and a
// lookup that tolerates the functions being absent. Replaced by direct named imports on merge.
export type FilterField = 'method' | 'tool' | 'id' | 'dir' | 'kind' | 'status' | 'session' | 'client' | 'code' | 'rev' | 'latency' | 'size' | 'has' | 'diag';
export type Filter =
  | { type: 'and'; items: Filter[] }
  | { type: 'or'; items: Filter[] }
  | { type: 'not'; item: Filter }
  | { type: 'field'; field: FilterField; op: ':' | '>' | '<'; value: string }
  | { type: 'text'; value: string };
type FilterParseResult = { ok: true; filter: Filter | null } | { ok: false; error: { message: string; position: number; length: number } };
export interface FilterOperatorInfo { syntax: string; field?: FilterField; help: string; example: string; values?: readonly string[] }
interface FilterLanguage {
  parseFilter(text: string): FilterParseResult;
  describeFilter(filter: Filter): string;
  matchesExchange(filter: Filter | null, ex: ExchangeSummary, ctx?: { session?: SessionSummary }): boolean;
  FILTER_OPERATORS: readonly FilterOperatorInfo[];
}
const lang = protocol as unknown as Partial<FilterLanguage>;
const interimParse = (text: string): FilterParseResult => ({ ok: true, filter: text.trim() ? { type: 'text', value: text.trim() } : null });
const interimMatch = (filter: Filter | null, ex: ExchangeSummary) =>
  filter?.type !== 'text' || `${ex.method ?? ''} ${ex.target ?? ''} ${ex.status}`.toLowerCase().includes(filter.value.toLowerCase());
export const parseFilter: FilterLanguage['parseFilter'] = lang.parseFilter ?? interimParse;
export const describeFilter: FilterLanguage['describeFilter'] = lang.describeFilter ?? ((f) => (f.type === 'text' ? `text contains “${f.value}”` : 'filter'));
const matchesExchange: FilterLanguage['matchesExchange'] = lang.matchesExchange ?? interimMatch;
export const FILTER_OPERATORS: readonly FilterOperatorInfo[] = lang.FILTER_OPERATORS ?? [];

export interface CompiledFilter {
  predicate: ExchangePredicate;
  /** "this filter means …", when the text parsed and is not empty. */
  description?: string;
  error?: { message: string; position: number; length: number };
}

/**
 * Compiles the filter text and the sidebar's session choice into one predicate. A text that does
 * not parse filters nothing (the bar shows the error), so the list never blanks while typing.
 */
export function compileFilter(
  text: string,
  sessionKey: string | undefined,
  /** Read at match time, so session updates (counts move constantly) need no recompile. */
  sessionOf: (sessionKey: string) => SessionSummary | undefined,
): CompiledFilter {
  const parsed = parseFilter(text);
  const filter = parsed.ok ? parsed.filter : null;
  const bySession: ExchangePredicate | undefined = sessionKey ? (ex) => ex.sessionKey === sessionKey : undefined;
  let predicate: ExchangePredicate = matchAll;
  if (filter) {
    const match = (ex: ExchangeSummary) => {
      const session = sessionOf(ex.sessionKey);
      return matchesExchange(filter, ex, session ? { session } : undefined);
    };
    predicate = bySession ? (ex) => bySession(ex) && match(ex) : match;
  } else if (bySession) {
    predicate = bySession;
  }
  const result: CompiledFilter = { predicate };
  if (!parsed.ok) result.error = parsed.error;
  else if (filter) result.description = describeFilter(filter);
  return result;
}
