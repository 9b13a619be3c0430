/**
 * Intercept rules: which traffic (a filter of the timeline's language), what to do to it (an
 * action), and how often (a count). Written as `FILTER => ACTION [COUNT]`, parsed by rule-parse.ts
 * and printed back by rule-print.ts; the proxy's intercept feature carries them out at the tap.
 */
import type { Filter, FilterError } from '../filter/types.js';
import type { JsonValue } from '../model/json-rpc.js';

/**
 * What a rule does to the client request it matches (and to that request's answer).
 * - `pause`: holds the request before the server sees it (`on: 'request'`) or the answer before
 *   the client sees it (`on: 'response'`) until released, edited or dropped, or `deadlineMs` passes
 *   (then it goes on unchanged).
 * - `delay`: forwards the request after `ms`.
 * - `error`, `is-error`, `replace`, `http`: answer in the server's place, without calling it.
 * - `inflate`: the server's result, padded to at least `bytes`.
 * - `drop`: the server's answer never reaches the client (it gets 202 Accepted and no reply).
 * - `cut-stream`: an SSE answer ends after `afterEvents` events.
 * - `notify`: sends a notification with `method` to the client before the server's answer.
 */
export type RuleAction =
  | { type: 'pause'; on: 'request' | 'response'; deadlineMs: number }
  | { type: 'delay'; ms: number }
  | { type: 'error'; code: number; message: string }
  | { type: 'is-error'; text: string }
  | { type: 'replace'; result: JsonValue }
  | { type: 'inflate'; bytes: number }
  | { type: 'drop' }
  | { type: 'http'; status: number; headers: Record<string, string> }
  | { type: 'cut-stream'; afterEvents: number }
  | { type: 'notify'; method: string };

export type RuleActionType = RuleAction['type'];

/** How often a rule acts: every match, its first `n` matches (`once` is 1), or a share of them. */
export type RuleCount = { type: 'always' } | { type: 'times'; n: number } | { type: 'percent'; p: number };

export interface InterceptRule {
  filter: Filter;
  action: RuleAction;
  count: RuleCount;
}

export type RuleParseResult = { ok: true; rule: InterceptRule } | { ok: false; error: FilterError };
