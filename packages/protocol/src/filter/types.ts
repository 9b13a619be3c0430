/**
 * The filter language's shapes: one grammar, parsed and evaluated in packages/protocol and used
 * unchanged by the API, the dashboard and intercept rules.
 */
import type { SessionSummary } from '../session/session-summary.js';

export type FilterField =
  | 'method'
  | 'tool'
  | 'id'
  | 'dir'
  | 'kind'
  | 'status'
  | 'session'
  | 'conversation'
  | 'client'
  | 'code'
  | 'rev'
  | 'latency'
  | 'size'
  | 'has'
  | 'diag'
  | 'http.method'
  | 'http.path'
  | 'http.status';

export type FilterOp = ':' | '>' | '<' | '=';

/**
 * A parsed filter. Field values are unquoted and normalised (enum values lower-cased, numbers in
 * canonical form) with one exception: an `id` value keeps its JSON type, so it is the JSON text of
 * the id — `7` for the number, `"7"` (with the quotes) for the string.
 */
export type Filter =
  | { type: 'and'; items: Filter[] }
  | { type: 'or'; items: Filter[] }
  | { type: 'not'; item: Filter }
  | { type: 'field'; field: FilterField; op: FilterOp; value: string }
  | { type: 'text'; value: string };

export interface FilterError {
  message: string;
  /** Offset into the filter text (UTF-16 code units) where the problem starts. */
  position: number;
  /** How many characters the problem spans, for underlining (at least 1 for non-empty text). */
  length: number;
}

export type FilterParseResult =
  | { ok: true; filter: Filter | null } // null = empty filter (matches everything)
  | { ok: false; error: FilterError };

export interface FilterContext {
  /** The exchange's session, for `client:`, `rev:` and `conversation:`. */
  session?: SessionSummary;
  /** Raw bodies of the exchange's frames, supplied lazily because only free text needs them. */
  bodyText?: () => string;
  /** Codes of the exchange's diagnostics, for `diag:CODE`. */
  diagnosticCodes?: readonly string[];
}

/** One entry of the operator registry, as help popovers and autocomplete show it. */
export interface FilterOperatorInfo {
  syntax: string;
  field?: FilterField;
  help: string;
  example: string;
  /** The closed set of values the field accepts, when it has one. */
  values?: readonly string[];
}
