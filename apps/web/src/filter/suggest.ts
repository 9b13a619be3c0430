/**
 * Autocomplete for the filter bar: operators from the registry while a field name is typed,
 * then values (the registry's fixed values, or values seen in the capture: methods, tools,
 * sessions, clients) once the field is known. Pure: text and caret in, suggestions out.
 */
import type { FilterOperatorInfo } from './filter-lang.js';

export interface Suggestion {
  /** Replaces the token under the caret. */
  insert: string;
  label: string;
  help?: string;
}

export interface CapturedValues {
  method: readonly string[];
  tool: readonly string[];
  session: readonly string[];
  client: readonly string[];
  conversation?: readonly string[];
}

const BOUNDARY = /[\s()!|&]/;
const MAX = 12;

/** The token under the caret: from the last boundary before it to the next one after it. */
export function tokenAt(text: string, caret: number): { start: number; end: number; token: string } {
  let start = caret;
  while (start > 0 && !BOUNDARY.test(text[start - 1]!)) start--;
  let end = caret;
  while (end < text.length && !BOUNDARY.test(text[end]!)) end++;
  return { start, end, token: text.slice(start, end) };
}

const quote = (v: string) => (/^[^\s()!|&"]+$/.test(v) ? v : JSON.stringify(v));

/** The field name an operator's syntax starts with (`method:NAME` → `method`, `latency>MS` → `latency`). */
function fieldOf(op: FilterOperatorInfo): string | undefined {
  return op.field ?? /^([a-z][a-z.]*)[:<>]/.exec(op.syntax)?.[1];
}

export function suggest(text: string, caret: number, operators: readonly FilterOperatorInfo[], captured: CapturedValues): Suggestion[] {
  const { token } = tokenAt(text, caret);
  const field = /^([a-z][a-z.]*)([:<>=])(.*)$/.exec(token);
  if (field) {
    const [, name, op, partial] = field as unknown as [string, string, string, string];
    const bare = partial.replace(/^"/, '').toLowerCase();
    const known = operators.filter((o) => fieldOf(o) === name).flatMap((o) => o.values ?? []);
    const seen = name === 'method' || name === 'tool' || name === 'session' || name === 'client' ? captured[name] : name === 'conversation' ? (captured.conversation ?? []) : [];
    const values = [...new Set([...known, ...seen])];
    return values
      .filter((v) => v.toLowerCase().startsWith(bare) || (bare.length > 1 && v.toLowerCase().includes(bare)))
      .slice(0, MAX)
      .map((v) => ({ insert: `${name}${op}${quote(v)}`, label: `${name}${op}${v}` }));
  }
  // Only field operators complete; the combinators (!, |, parentheses) are in the help table.
  const fields = operators.filter((o) => fieldOf(o) !== undefined);
  if (token.length === 0) return fields.flatMap(toSuggestions).slice(0, MAX);
  const lower = token.toLowerCase();
  return fields.flatMap(toSuggestions).filter((s) => s.insert.toLowerCase().startsWith(lower)).slice(0, MAX);
}

/** One suggestion per form the operator's syntax names (`session:KEY | session=KEY`: `session:` and `session=`). */
function toSuggestions(op: FilterOperatorInfo): Suggestion[] {
  const forms = new Map<string, string>();
  for (const alternative of op.syntax.split(' | ')) {
    const cut = alternative.search(/[:<>=]/);
    const insert = cut >= 0 ? alternative.slice(0, cut + 1) : alternative;
    if (!forms.has(insert)) forms.set(insert, alternative);
  }
  return [...forms].map(([insert, label]) => ({ insert, label, help: op.help }));
}

/** Adds `term` to the filter (joined by a space, i.e. "and"), or removes it when already there. */
export function toggleTerm(text: string, term: string): string {
  const parts = text.split(/\s+/).filter(Boolean);
  const at = parts.indexOf(term);
  if (at >= 0) {
    parts.splice(at, 1);
    return parts.join(' ');
  }
  return [...parts, term].join(' ');
}

export function hasTerm(text: string, term: string): boolean {
  return text.split(/\s+/).includes(term);
}
