/**
 * Which captured call answers a live request (`mcpscope mock`).
 *
 * Match rules:
 * - strict (default): the same method and the same params after canonicalisation (member order
 *   ignored; the JSON-RPC `id` and all of `params._meta` ignored: progress tokens, the 2026-07-28
 *   envelope, host hints). `initialize` matches any captured `initialize`, the one that asked for
 *   the same protocol revision first, then the most alike; `ping` is always answered.
 * - loose (`--match loose`): the same method and the same target (tool name, resource URI or
 *   prompt name); the arguments only rank the candidates (most equal leaves first).
 * - Among equal candidates, each mock session walks the captured answers in capture order
 *   (a counter tool called three times answers 1, 2, 3), preferring the captured session its
 *   first match came from; once they are used up, the last one answers again.
 * - No match: a JSON-RPC error that names what was asked and the nearest captured requests, with
 *   the first JSON path where each differs. A request is never left unanswered.
 */
import type { JsonObject } from '../model/json-rpc.js';
import { targetOf } from '../model/target.js';
import { canonicalJson, meaningfulParams, requestKey, similarity } from './canonical.js';
import type { Cassette, CassetteCall } from './cassette.js';
import { firstDifference } from './compare.js';

export type MatchMode = 'strict' | 'loose';

/** JSON-RPC codes of a mock's own answers: the method was never captured / these params were not. */
export const MOCK_METHOD_NOT_CAPTURED = -32601;
export const MOCK_NO_MATCH = -32602;

export interface NearestCall {
  exchangeId: string;
  method: string;
  target?: string;
  params: JsonObject;
  /** The first JSON path (within params) where the capture differs from what was asked. */
  differsAt?: string;
  similarity: number;
}

export type MatchResult =
  | { ok: true; call: CassetteCall }
  | { ok: false; error: { code: number; message: string; data: { mcpscope: 'mock-unmatched'; asked: { method: string; params: JsonObject }; mode: MatchMode; nearest: NearestCall[] } } };

/** Calls a mock can answer: the capture holds their answer, or how their transport failed. */
export function answerable(call: CassetteCall): boolean {
  return call.answer !== undefined || call.status === 'transport_error';
}

export class CassetteMatcher {
  private readonly byKey = new Map<string, CassetteCall[]>();
  private readonly byTarget = new Map<string, CassetteCall[]>();
  private readonly byMethod = new Map<string, CassetteCall[]>();

  constructor(cassette: Cassette, readonly mode: MatchMode = 'strict') {
    for (const call of cassette.calls) {
      if (!answerable(call)) continue;
      push(this.byKey, requestKey(call.method, call.params), call);
      push(this.byTarget, targetKey(call.method, call.params), call);
      push(this.byMethod, call.method, call);
    }
  }

  /** A cursor for one mock session (or one stateless client): it remembers what it was given. */
  session(): MatchCursor {
    return new MatchCursor(this);
  }

  /** The candidates a request may be answered by, best first (before cursor order). */
  candidates(method: string, params: JsonObject | undefined): CassetteCall[] {
    if (method === 'initialize') {
      const asked = params?.protocolVersion;
      const all = this.byMethod.get(method) ?? [];
      return rank(all, params, (c) => (c.params?.protocolVersion === asked ? 1 : 0));
    }
    if (this.mode === 'strict') return this.byKey.get(requestKey(method, params)) ?? [];
    return rank(this.byTarget.get(targetKey(method, params)) ?? [], params);
  }

  /** The error for a request nothing answers: what was asked, and the nearest captured calls. */
  unmatched(method: string, params: JsonObject | undefined): Extract<MatchResult, { ok: false }> {
    const asked = meaningfulParams(params);
    const sameMethod = this.byMethod.get(method) ?? [];
    const pool = sameMethod.length > 0 ? sameMethod : [...this.byMethod.values()].map((list) => list[0]!);
    const seen = new Set<string>();
    const nearest: NearestCall[] = [];
    for (const call of rank(pool, params)) {
      const key = requestKey(call.method, call.params);
      if (seen.has(key)) continue;
      seen.add(key);
      const theirs = meaningfulParams(call.params);
      const near: NearestCall = { exchangeId: call.exchangeId, method: call.method, params: theirs, similarity: round(similarity(params, call.params)) };
      if (call.target !== undefined) near.target = call.target;
      const diff = call.method === method ? firstDifference(asked, theirs) : undefined;
      if (diff?.path !== undefined) near.differsAt = diff.path.replace(/^\$/, '$.params');
      nearest.push(near);
      if (nearest.length === 3) break;
    }
    const what = `${method}${targetOf(method, params) !== undefined ? ` "${targetOf(method, params)}"` : ''}`;
    const message =
      sameMethod.length === 0
        ? `mcpscope mock: the capture holds no ${method} request, so there is no answer to give. Captured methods: ${[...this.byMethod.keys()].sort().join(', ') || 'none'}.`
        : `mcpscope mock: no captured ${what} ${this.mode === 'strict' ? 'with these params' : 'for this target'} (${canonicalJson(asked).slice(0, 200)}). Nearest captured: ${nearest.map((n) => `exchange ${n.exchangeId}${n.differsAt ? ` (differs at ${n.differsAt})` : ''}`).join('; ')}.${this.mode === 'strict' ? ' Run the mock with --match loose to answer by method and target alone.' : ''}`;
    return {
      ok: false,
      error: { code: sameMethod.length === 0 ? MOCK_METHOD_NOT_CAPTURED : MOCK_NO_MATCH, message, data: { mcpscope: 'mock-unmatched', asked: { method, params: asked }, mode: this.mode, nearest } },
    };
  }
}

export class MatchCursor {
  private readonly used = new Set<CassetteCall>();
  private affinity: string | undefined;

  constructor(private readonly matcher: CassetteMatcher) {}

  /** The captured session this cursor follows (the one its first match came from). */
  get capturedSession(): string | undefined {
    return this.affinity;
  }

  match(method: string, params: JsonObject | undefined): MatchResult {
    const candidates = this.matcher.candidates(method, params);
    if (candidates.length === 0) return this.matcher.unmatched(method, params);
    const fresh = candidates.filter((c) => !this.used.has(c));
    // Ranked lists (initialize, loose) are best first; strict lists are in capture order, whose
    // last answer repeats once all are used.
    const ranked = method === 'initialize' || this.matcher.mode === 'loose';
    const pick = fresh.find((c) => c.sessionKey === this.affinity) ?? fresh[0] ?? (ranked ? candidates[0]! : candidates[candidates.length - 1]!);
    this.used.add(pick);
    this.affinity ??= pick.sessionKey;
    return { ok: true, call: pick };
  }
}

function targetKey(method: string, params: JsonObject | undefined): string {
  const target = targetOf(method, params);
  return target === undefined ? method : `${method} ${target}`;
}

/** Best first by score, then by similarity of params; stable (capture order breaks ties). */
function rank(calls: CassetteCall[], params: JsonObject | undefined, score: (c: CassetteCall) => number = () => 0): CassetteCall[] {
  return calls
    .map((call, i) => ({ call, i, s: score(call), sim: similarity(params, call.params) }))
    .sort((a, b) => b.s - a.s || b.sim - a.sim || a.i - b.i)
    .map((r) => r.call);
}

function push(map: Map<string, CassetteCall[]>, key: string, call: CassetteCall): void {
  const list = map.get(key);
  if (list) list.push(call);
  else map.set(key, [call]);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
