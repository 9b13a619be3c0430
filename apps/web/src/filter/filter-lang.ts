/**
 * The dashboard's one door to the filter language of @mcpscope/protocol (one grammar, shared
 * with the API): parse, describe, match, and the operator registry for help and autocomplete.
 * Also turns the filter text plus the chosen session into the predicate the view runs, and into
 * the filter the server runs for the same rows.
 */
import type { ExchangeSummary, SessionSummary } from '@mcpscope/protocol';
import { FILTER_OPERATORS, answerableFromSummary, compileFilter, describeFilter, parseFilter, printFilter, type FilterError, type FilterOperatorInfo } from '@mcpscope/protocol';
import { matchAll, type ExchangePredicate } from '../store/view-index.js';

export { FILTER_OPERATORS, describeFilter, parseFilter };
export type { FilterOperatorInfo };

export interface ViewFilter {
  predicate: ExchangePredicate;
  /** "this filter means …", when the text parsed and is not empty. */
  description?: string;
  error?: FilterError;
  /**
   * The filter text to ask the capture for, when summaries cannot answer it (free text, diag:);
   * the predicate then admits the ids the capture returned (`serverMatches`), nothing else.
   */
  serverText?: string;
}

/**
 * Compiles the filter text and the sidebar's session choice into one predicate. A text that does
 * not parse filters nothing (the bar shows the error), so the list never blanks while typing.
 */
export function buildViewFilter(
  text: string,
  sessionKey: string | undefined,
  /** Read at match time, so session updates (counts move constantly) need no recompile. */
  sessionOf: (sessionKey: string) => SessionSummary | undefined,
  /** What the capture found for a filter summaries cannot answer (see server-search.ts). */
  serverMatches?: ReadonlySet<string>,
): ViewFilter {
  const parsed = parseFilter(text);
  const filter = parsed.ok ? parsed.filter : null;
  const bySession: ExchangePredicate | undefined = sessionKey ? (ex) => ex.sessionKey === sessionKey : undefined;
  let predicate: ExchangePredicate = matchAll;
  const serverText = filter && !answerableFromSummary(filter) ? text : undefined;
  if (serverText !== undefined) {
    const found = serverMatches ?? new Set<string>();
    predicate = bySession ? (ex) => bySession(ex) && found.has(ex.id) : (ex) => found.has(ex.id);
  } else if (filter) {
    const compiled = compileFilter(filter);
    const match = (ex: ExchangeSummary) => {
      const session = sessionOf(ex.sessionKey);
      return compiled(ex, session ? { session } : undefined);
    };
    predicate = bySession ? (ex) => bySession(ex) && match(ex) : match;
  } else if (bySession) {
    predicate = bySession;
  }
  const result: ViewFilter = { predicate };
  if (serverText !== undefined) result.serverText = serverText;
  if (!parsed.ok) result.error = parsed.error;
  else if (filter) result.description = describeFilter(filter);
  return result;
}

/**
 * What the view shows as a filter the server runs (a windowed capture's list, an export): the text
 * as typed (none while it does not parse, as the local view filters nothing then) and the chosen
 * session by its whole key (`session=`), so both keep the same rows when one key starts another.
 */
export function serverViewFilter(text: string, sessionKey: string | undefined): string {
  const typed = parseFilter(text).ok ? text.trim() : '';
  if (!sessionKey) return typed;
  const session = printFilter({ type: 'field', field: 'session', op: '=', value: sessionKey });
  return typed === '' ? session : `(${typed}) ${session}`;
}
