/**
 * What a load run measured, per row (a method, or `tools/call NAME` per tool): how many calls,
 * their latencies (p50/p95/p99/max), the outcome split (ok / protocol error / business error /
 * transport error), the first answers that differ from the captured ones, and where latency
 * grew: the p50 of the run's last quarter against its first quarter's.
 *
 * An error, for `--max-errors`: a call that did not end ok where the captured call did not end
 * that way either (a tool that failed in the capture and fails again is the capture's behaviour,
 * not the load's finding).
 */
import { comparableStatus, compareOutcomes, isJsonObject, type CallOutcome, type CassetteCall, type Difference, type OutcomeStatus } from '@mcpscope/protocol';

/** Answers compared with the captured one per row, at most (the first differing ones are kept). */
const COMPARED_PER_ROW = 20;
const DIFFERENCES_KEPT = 3;
/** Latency samples kept per row; past it, a reservoir keeps an even sample of the run. */
const SAMPLES_PER_ROW = 200_000;

export const OUTCOMES: readonly OutcomeStatus[] = ['ok', 'protocol_error', 'business_error', 'transport_error'];

export interface RowDifference {
  exchangeId: string;
  difference?: Difference;
  after: OutcomeStatus;
  /** The live error: a transport failure, or a JSON-RPC error's code and message. */
  failure?: string;
}

export class LoadRow {
  count = 0;
  errors = 0;
  readonly outcomes: Record<OutcomeStatus, number> = { ok: 0, protocol_error: 0, business_error: 0, transport_error: 0 };
  readonly differences: RowDifference[] = [];
  private compared = 0;
  private latencies: number[] = [];
  /** (elapsed ms at the end of the call, latency) of every kept sample, for the growth figure. */
  private timeline: number[] = [];
  private seen = 0;

  constructor(readonly key: string) {}

  add(outcome: CallOutcome, latencyMs: number, atMs: number, call: CassetteCall | undefined): void {
    this.count++;
    this.outcomes[outcome.status]++;
    const captured = call ? comparableStatus(call.status) : undefined;
    if (outcome.status !== 'ok' && outcome.status !== captured) this.errors++;
    this.sample(latencyMs, atMs);
    if (!call || captured === undefined || this.differences.length >= DIFFERENCES_KEPT) return;
    if (this.compared >= COMPARED_PER_ROW && outcome.status === captured) return;
    this.compared++;
    const before: CallOutcome = { status: captured, ...(call.answer ? { answer: call.answer } : {}), ...(call.failure !== undefined ? { failure: call.failure } : {}) };
    const comparison = compareOutcomes(before, outcome);
    if (comparison.verdict === 'same') return;
    const diff: RowDifference = { exchangeId: call.exchangeId, after: outcome.status };
    if (comparison.difference) diff.difference = comparison.difference;
    const error = isJsonObject(outcome.answer) && isJsonObject(outcome.answer.error) ? outcome.answer.error : undefined;
    const failure = outcome.failure ?? (error ? `error ${String(error.code)}: ${String(error.message)}` : undefined);
    if (failure !== undefined) diff.failure = failure;
    // The first answers of each kind that differ: the same difference again adds nothing.
    const same = (d: RowDifference) => d.after === diff.after && d.difference?.kind === diff.difference?.kind && d.difference?.path === diff.difference?.path;
    if (!this.differences.some(same)) this.differences.push(diff);
  }

  /** The kept latency samples, unsorted. */
  samples(): readonly number[] {
    return this.latencies;
  }

  private sample(latencyMs: number, atMs: number): void {
    this.seen++;
    if (this.latencies.length < SAMPLES_PER_ROW) {
      this.latencies.push(latencyMs);
      this.timeline.push(atMs, latencyMs);
      return;
    }
    const slot = Math.floor(Math.random() * this.seen);
    if (slot < SAMPLES_PER_ROW) {
      this.latencies[slot] = latencyMs;
      this.timeline[slot * 2] = atMs;
      this.timeline[slot * 2 + 1] = latencyMs;
    }
  }

  summary(elapsedMs: number): RowSummary {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const pairs: [number, number][] = [];
    for (let i = 0; i < this.timeline.length; i += 2) pairs.push([this.timeline[i]!, this.timeline[i + 1]!]);
    pairs.sort((a, b) => a[0] - b[0]);
    const quarter = Math.floor(pairs.length / 4);
    const firstP50 = quarter >= 5 ? percentile(pairs.slice(0, quarter).map((p) => p[1]).sort((a, b) => a - b), 50) : undefined;
    const lastP50 = quarter >= 5 ? percentile(pairs.slice(-quarter).map((p) => p[1]).sort((a, b) => a - b), 50) : undefined;
    return {
      key: this.key,
      count: this.count,
      perSecond: elapsedMs > 0 ? (this.count * 1000) / elapsedMs : 0,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? 0,
      outcomes: { ...this.outcomes },
      errors: this.errors,
      ...(firstP50 !== undefined && lastP50 !== undefined ? { growth: { firstP50, lastP50 } } : {}),
      differences: this.differences,
    };
  }
}

export interface RowSummary {
  key: string;
  count: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  outcomes: Record<OutcomeStatus, number>;
  errors: number;
  /** p50 latency (ms) of the run's first and last quarter of calls. */
  growth?: { firstP50: number; lastP50: number };
  differences: RowDifference[];
}

export class LoadStats {
  private readonly rows = new Map<string, LoadRow>();
  requests = 0;
  errors = 0;

  add(key: string, outcome: CallOutcome, latencyMs: number, atMs: number, call: CassetteCall | undefined): void {
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = new LoadRow(key)));
    const before = row.errors;
    row.add(outcome, latencyMs, atMs, call);
    this.requests++;
    this.errors += row.errors - before;
  }

  /** Rows by count, then name; and the total. */
  summary(elapsedMs: number): { rows: RowSummary[]; total: RowSummary } {
    const rows = [...this.rows.values()].map((r) => r.summary(elapsedMs)).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
    const total = new LoadRow('all');
    // The total's latencies are the rows' kept samples, not a second copy of every call.
    const summary = total.summary(elapsedMs);
    summary.count = this.requests;
    summary.perSecond = elapsedMs > 0 ? (this.requests * 1000) / elapsedMs : 0;
    summary.errors = this.errors;
    for (const r of rows) for (const o of OUTCOMES) summary.outcomes[o] += r.outcomes[o];
    const all = rows.flatMap((r) => this.rows.get(r.key)!.samples()).sort((a, b) => a - b);
    Object.assign(summary, { p50: percentile(all, 50), p95: percentile(all, 95), p99: percentile(all, 99), max: all[all.length - 1] ?? 0 });
    return { rows, total: summary };
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
