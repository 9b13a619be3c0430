/**
 * What "Re-run failed calls" re-runs, and how each re-run reads beside its original. Pure: the
 * panel hands it summaries and details, it hands back rows.
 *
 * A failed call is a client request that ended in a protocol, tool (business) or transport
 * error. `initialize` is left out (a fresh replay opens its own session with one), and so are
 * replays themselves (re-running the original covers them). Each row is compared by the same
 * compareOutcomes `mcpscope verify --expect ok` uses: fixed, still failing, same or regressed.
 */
import { comparableStatus, compareOutcomes, followedRedirects, type CallOutcome, type Comparison, type ExchangeDetail, type ExchangeSummary, type JsonValue } from '@mcpscope/protocol';
import { responseRaw } from '../replay/exchange-text.js';

const FAILED = new Set(['protocol_error', 'business_error', 'transport_error']);

/** At most this many calls per run: enough for a real session, never a runaway loop of replays. */
export const RERUN_LIMIT = 200;

export function isRerunnable(ex: ExchangeSummary): boolean {
  return ex.requester === 'client' && ex.kind === 'request' && ex.method !== 'initialize' && ex.replayOf === undefined;
}

export function isFailedCall(ex: ExchangeSummary): boolean {
  return isRerunnable(ex) && FAILED.has(ex.status);
}

/**
 * The failed calls among `ids` (capture order), at most RERUN_LIMIT of them, and how many there
 * were. A request the server redirected and the client sent again is not one: its call is the
 * one sent again (followed-redirects.ts).
 */
export function failedCalls(ids: readonly string[], get: (id: string) => ExchangeSummary | undefined): { ids: string[]; total: number } {
  const out: string[] = [];
  let total = 0;
  const summaries = ids.map(get).filter((ex): ex is ExchangeSummary => ex !== undefined);
  const followed = followedRedirects(summaries);
  for (const ex of summaries) {
    const id = ex.id;
    if (!isFailedCall(ex) || followed.has(id)) continue;
    total++;
    if (out.length < RERUN_LIMIT) out.push(id);
  }
  return { ids: out, total };
}

/** One side of a row, from an exchange's detail: its status and its JSON-RPC answer. */
export function outcomeOf(detail: ExchangeDetail): CallOutcome | undefined {
  const status = comparableStatus(detail.exchange.status);
  if (status === undefined) return undefined;
  const raw = responseRaw(detail);
  let answer: JsonValue | undefined;
  try {
    answer = raw !== undefined && detail.exchange.responseSeq !== undefined ? (JSON.parse(raw) as JsonValue) : undefined;
  } catch {
    answer = undefined;
  }
  return { status, ...(answer !== undefined ? { answer } : {}), ...(status === 'transport_error' ? { failure: detail.exchange.errorMessage ?? 'transport error' } : {}) };
}

/** The verdict of a re-run, or undefined when one side has nothing to compare (still pending…). */
export function compareRerun(original: ExchangeDetail, replay: ExchangeDetail): Comparison | undefined {
  const before = outcomeOf(original);
  const after = outcomeOf(replay);
  if (!before || !after) return undefined;
  return compareOutcomes(before, after, { expectOk: true });
}

export const VERDICT_LABEL: Record<Comparison['verdict'], string> = {
  fixed: 'fixed',
  failing: 'still failing',
  same: 'same',
  changed: 'changed (additive)',
  regressed: 'changed',
};
