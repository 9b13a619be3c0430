/**
 * Before and after: how a re-run answer compares with the captured one. One function, used by
 * `mcpscope verify` and by the dashboard's "Re-run failed calls", so both say the same thing
 * about the same pair.
 *
 * The comparison, in order:
 * 1. status (ok / protocol error / business error / transport error): a different status is the
 *    verdict (`fixed` when an error became ok, `regressed` otherwise);
 * 2. shape: the answer's skeleton (member names and value types, after masking): a member gone
 *    or renamed, or a value of another type, is a `shape` regression;
 * 3. content: equal after masking volatile parts (volatile.ts) and removing ignored paths.
 * The first differing path is reported in document order, a shape difference before a content
 * one (the rename matters more than the value that moved with it).
 *
 * An answer that differs only by members the captured one did not have (a new field) is
 * `changed`: additive, not a regression, since a client that read the old answer still finds
 * everything it read. `strict` makes it a regression.
 */
import type { ExchangeStatus } from '../model/exchange.js';
import { isJsonObject, type JsonValue } from '../model/json-rpc.js';
import { canonicalJson } from './canonical.js';
import { childPath } from '../model/json-path.js';
import { maskVolatile, type VolatileOptions } from './volatile.js';

/** The statuses a call can end in that a comparison distinguishes. */
export type OutcomeStatus = 'ok' | 'protocol_error' | 'business_error' | 'transport_error';

/** One side of a comparison: how the call ended and the JSON-RPC answer, when there was one. */
export interface CallOutcome {
  status: OutcomeStatus;
  /** The whole JSON-RPC answer (`{jsonrpc, id, result}` or `{…, error}`). */
  answer?: JsonValue;
  /** For a transport error: what happened (connection refused, stream cut, HTTP 502…). */
  failure?: string;
}

/** `changed`: the answer only gained members (additive); not a failure unless `strict`. */
export type Verdict = 'same' | 'fixed' | 'changed' | 'regressed' | 'failing';

/** How a difference renders the side that lacks the member. */
const MISSING = '(missing)';

export interface Difference {
  kind: 'status' | 'shape' | 'content';
  /** The first differing JSON path (from the message root), absent for a status change. */
  path?: string;
  /** Short renderings of the two values at `path`. */
  before?: string;
  after?: string;
}

export interface Comparison {
  verdict: Verdict;
  difference?: Difference;
}

export interface CompareOptions extends VolatileOptions {
  /** `--expect ok`: the after side must be ok; a captured error that is now ok is what is wanted. */
  expectOk?: boolean;
  /** `--strict`: a member the answer gained is a regression too, not an additive change. */
  strict?: boolean;
}

/** The status of an answer as the deriver would give it (transport failures come from the caller). */
export function outcomeOf(answer: JsonValue | undefined, failure?: string): CallOutcome {
  if (failure !== undefined || !isJsonObject(answer)) return { status: 'transport_error', ...(answer !== undefined ? { answer } : {}), failure: failure ?? 'no answer' };
  if (isJsonObject(answer.error)) return { status: 'protocol_error', answer };
  if (isJsonObject(answer.result) && answer.result.isError === true) return { status: 'business_error', answer };
  return { status: 'ok', answer };
}

/** A captured exchange's status as an outcome status; undefined for rows with nothing to compare. */
export function comparableStatus(status: ExchangeStatus): OutcomeStatus | undefined {
  return status === 'ok' || status === 'protocol_error' || status === 'business_error' || status === 'transport_error' ? status : undefined;
}

export function compareOutcomes(before: CallOutcome, after: CallOutcome, options: CompareOptions = {}): Comparison {
  if (options.expectOk) {
    if (after.status !== 'ok') return { verdict: 'failing', difference: { kind: 'status', before: before.status, after: after.status } };
    if (before.status !== 'ok') return { verdict: 'fixed', difference: { kind: 'status', before: before.status, after: after.status } };
  }
  if (before.status !== after.status) {
    return { verdict: before.status !== 'ok' && after.status === 'ok' ? 'fixed' : 'regressed', difference: { kind: 'status', before: before.status, after: after.status } };
  }
  // Two transport failures are the same outcome whatever their wording (ports and timings differ).
  if (before.status === 'transport_error') return { verdict: 'same' };
  const a = maskVolatile(payloadOf(before.answer), options);
  const b = maskVolatile(payloadOf(after.answer), options);
  const difference = firstDifference(a, b);
  if (!difference) return { verdict: 'same' };
  if (options.strict || !isAddedMember(difference)) return { verdict: 'regressed', difference };
  const beyondAdditions = firstDifference(a, b, { skipAddedMembers: true });
  return beyondAdditions ? { verdict: 'regressed', difference: beyondAdditions } : { verdict: 'changed', difference };
}

/** A shape difference that is a member the after side has and the before side lacks. */
function isAddedMember(d: Difference): boolean {
  return d.kind === 'shape' && d.before === MISSING && d.after !== MISSING;
}

/** What is compared of an answer: its `result` or `error` under their own names, not the envelope. */
function payloadOf(answer: JsonValue | undefined): JsonValue {
  if (!isJsonObject(answer)) return answer ?? null;
  const out: { [k: string]: JsonValue } = {};
  if ('result' in answer) out.result = answer.result!;
  if ('error' in answer) out.error = answer.error!;
  return out;
}

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as Kind;
}

/**
 * The first shape difference in document order, else the first content difference; undefined
 * when the two are equal. Walks with its own stack (values may be deeper than the call stack).
 * `skipAddedMembers`: members only `after` has are passed over (what else differs?).
 */
export function firstDifference(before: unknown, after: unknown, options: { skipAddedMembers?: boolean } = {}): Difference | undefined {
  let content: Difference | undefined;
  const stack: Array<{ a: unknown; b: unknown; path: string }> = [{ a: before, b: after, path: '$' }];
  while (stack.length > 0) {
    const { a, b, path } = stack.pop()!;
    const ka = kindOf(a);
    const kb = kindOf(b);
    if (ka !== kb) return { kind: 'shape', path, before: short(a), after: short(b) };
    const next: Array<{ a: unknown; b: unknown; path: string }> = [];
    if (ka === 'object') {
      const oa = a as Record<string, unknown>;
      const ob = b as Record<string, unknown>;
      for (const k of Object.keys(oa)) {
        if (!(k in ob)) return { kind: 'shape', path: childPath(path, k), before: short(oa[k]), after: MISSING };
      }
      for (const k of Object.keys(ob)) {
        if (!(k in oa) && !options.skipAddedMembers) return { kind: 'shape', path: childPath(path, k), before: MISSING, after: short(ob[k]) };
      }
      for (const k of Object.keys(oa)) next.push({ a: oa[k], b: ob[k], path: childPath(path, k) });
    } else if (ka === 'array') {
      const aa = a as unknown[];
      const ab = b as unknown[];
      const n = Math.min(aa.length, ab.length);
      for (let i = 0; i < n; i++) next.push({ a: aa[i], b: ab[i], path: childPath(path, i) });
      if (aa.length !== ab.length && !content) content = { kind: 'content', path, before: `${aa.length} items`, after: `${ab.length} items` };
    } else if (!content && canonicalJson(a) !== canonicalJson(b)) {
      content = { kind: 'content', path, before: short(a), after: short(b) };
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return content;
}

function short(v: unknown): string {
  if (v === undefined) return MISSING;
  const text = canonicalJson(v);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
