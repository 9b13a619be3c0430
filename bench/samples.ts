/**
 * Collects one number per round for each (metric, path) and builds the "same run" baseline of a
 * row: every path's median is compared with the baseline path's median from the same rounds.
 */
import { percentile, spread } from './stats.js';
import type { BenchRow } from './report.js';
import type { BenchPath } from './paths.js';
import { load } from './support/load.js';
import { wrkLoad } from './support/wrk.js';

export class Samples {
  private readonly byKey = new Map<string, number[]>();

  add(metric: string, path: string, value: number): void {
    const key = `${metric}\u0000${path}`;
    const list = this.byKey.get(key);
    if (list) list.push(value);
    else this.byKey.set(key, [value]);
  }

  get(metric: string, path: string): number[] {
    return this.byKey.get(`${metric}\u0000${path}`) ?? [];
  }

  /** `versus('direct', path)(metric)`: the baseline fields of a row, none for the baseline itself. */
  versus(baselinePath: string, path: string): (metric: string) => Pick<BenchRow, 'baseline'> {
    return (metric) => {
      const base = this.get(metric, baselinePath);
      if (path === baselinePath || base.length === 0) return {};
      return { baseline: { name: baselinePath, value: spread(base).median } };
    };
  }
}

export type LoadMetric = 'p50' | 'p99' | 'rate';

/** What a budget says of one row, given the row with its baseline. */
export interface RowBudget {
  budget: string;
  met(value: number, baseline: number): boolean;
}

/** Which client made the load: the undici one in this process, or wrk (support/wrk.ts). */
export type LoadGenerator = 'undici' | 'wrk';

/** The sample key of a load metric (wrk's carry a prefix, so both generators share one Samples). */
export const loadKey = (metric: LoadMetric, clients: number, generator: LoadGenerator = 'undici') => `${generator === 'wrk' ? 'wrk ' : ''}${metric} ${clients}`;

/** "10 clients", or "10 clients (wrk)". */
export const clientsLabel = (clients: number, generator: LoadGenerator = 'undici') => `${clients} client${clients === 1 ? '' : 's'}${generator === 'wrk' ? ' (wrk)' : ''}`;

/**
 * The rows of a load benchmark: for each concurrency, each metric, every path (so each
 * comparison reads top to bottom), against `direct` from the same rounds. Samples are keyed
 * by `loadKey`.
 */
export function loadRows(
  bench: string,
  samples: Samples,
  paths: readonly string[],
  concurrencies: readonly number[],
  metrics: readonly LoadMetric[],
  budgetOf: (path: string, metric: LoadMetric, clients: number) => RowBudget | undefined,
  generator: LoadGenerator = 'undici',
): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const clients of concurrencies) {
    const who = clientsLabel(clients, generator);
    for (const metric of metrics) {
      const key = loadKey(metric, clients, generator);
      for (const path of paths) {
        const values = samples.get(key, path);
        const s = spread(values);
        const row: BenchRow = {
          bench,
          metric: `tools/call ${metric}, ${who}, ${path}`,
          value: s.median,
          spread: s,
          ...(metric === 'rate' ? { unit: 'req/s', ratioAs: '%' as const } : { unit: 'ms' }),
          ...samples.versus('direct', path)(key),
        };
        const budget = budgetOf(path, metric, clients);
        if (budget && row.baseline) Object.assign(row, { budget: budget.budget, met: budget.met(row.value, row.baseline.value) });
        rows.push(row);
      }
    }
  }
  return rows;
}

export interface LoadRounds {
  rounds: number;
  concurrencies: readonly number[];
  /** Calls per run, shared by its clients (at least 20 each). */
  callsPerRun: number;
  /** Each client opens its own MCP session first (stateful servers). */
  sessions?: boolean;
  /** Calls of the warm-up run per path per round (one client). */
  warmUp: number;
  /** wrk runs for a fixed time instead of a number of calls (no sessions). */
  generator?: LoadGenerator;
  /** Seconds per wrk run (whole seconds: wrk takes no fractions). */
  wrkSeconds?: number;
}

/**
 * Rounds of `tools/call` load over every path, interleaved so drift on a shared machine hits every
 * path alike; adds p50, p99 and rate samples keyed `${metric} ${clients}` for `loadRows`.
 */
export async function runLoadRounds(paths: readonly [string, BenchPath][], plan: LoadRounds): Promise<Samples> {
  const samples = new Samples();
  for (let round = 0; round < plan.rounds; round++) {
    for (const [name, path] of paths) {
      const url = `${path.origin}/mcp`;
      await load(url, 1, plan.warmUp, plan.sessions); // connections, JIT
      for (const clients of plan.concurrencies) {
        const g = plan.generator ?? 'undici';
        if (g === 'wrk') {
          const run = await wrkLoad(url, clients, plan.wrkSeconds ?? 2);
          samples.add(loadKey('p50', clients, g), name, run.p50);
          samples.add(loadKey('p99', clients, g), name, run.p99);
          samples.add(loadKey('rate', clients, g), name, run.rps);
          continue;
        }
        const run = await load(url, clients, Math.max(20, Math.floor(plan.callsPerRun / clients)), plan.sessions);
        samples.add(loadKey('p50', clients, g), name, percentile(run.latencies, 50));
        samples.add(loadKey('p99', clients, g), name, percentile(run.latencies, 99));
        samples.add(loadKey('rate', clients, g), name, run.rps);
      }
    }
  }
  return samples;
}

const ADDED_P50_SLACK_MS = 0.1;

/**
 * Rows that read the tap against the fastest pass-through floor of the same run rather than
 * direct (issue 18's budgets): at one client, the p50 each path adds over direct (per round, so
 * drift between rounds cancels) against the floor that adds least, budget ≤ floor + 0.1 ms for
 * mcpscope; at the top concurrency, mcpscope's rate against the floor with the highest rate
 * (≥ 60 %) and against capture off (≥ 85 %).
 */
export function floorRows(bench: string, samples: Samples, paths: readonly string[], floors: readonly string[], top: number, generator: LoadGenerator = 'undici'): BenchRow[] {
  const present = floors.filter((f) => paths.includes(f) && samples.get(loadKey('rate', top, generator), f).length > 0);
  if (present.length === 0 || !paths.includes('direct')) return [];
  const one = clientsLabel(1, generator);
  const p50 = loadKey('p50', 1, generator);
  const direct = samples.get(p50, 'direct');
  const added = (path: string) => samples.get(p50, path).map((v, i) => v - direct[i]!);
  const median = (values: number[]) => spread(values).median;
  const rows: BenchRow[] = [];
  if (direct.length > 0) {
    const floor = present.reduce((best, f) => (median(added(f)) < median(added(best)) ? f : best));
    const base = { name: `fastest floor (${floor})`, value: median(added(floor)) };
    for (const path of paths) {
      if (path === 'direct' || samples.get(p50, path).length === 0) continue;
      const values = added(path);
      const row: BenchRow = { bench, metric: `tools/call p50 added over direct, ${one}, ${path}`, value: median(values), spread: spread(values), unit: 'ms', baseline: base };
      if (path === 'mcpscope') Object.assign(row, { budget: `≤ fastest floor + ${ADDED_P50_SLACK_MS} ms`, met: row.value <= base.value + ADDED_P50_SLACK_MS });
      rows.push(row);
    }
  }
  const rate = loadKey('rate', top, generator);
  const mcpscope = samples.get(rate, 'mcpscope');
  if (mcpscope.length > 0) {
    const who = clientsLabel(top, generator);
    const floor = present.reduce((best, f) => (median(samples.get(rate, f)) > median(samples.get(rate, best)) ? f : best));
    const row = (against: string, label: string, share: number): BenchRow => {
      const value = median(mcpscope);
      const baseline = median(samples.get(rate, against));
      return { bench, metric: `tools/call rate, ${who}, mcpscope against ${label}`, value, spread: spread(mcpscope), unit: 'req/s', ratioAs: '%', baseline: { name: label === 'capture off' ? 'capture off' : `fastest floor (${floor})`, value: baseline }, budget: `≥ ${share * 100} % of ${label}`, met: value / baseline >= share };
    };
    rows.push(row(floor, 'the fastest floor', 0.6));
    if (samples.get(rate, 'mcpscope, capture off').length > 0) rows.push(row('mcpscope, capture off', 'capture off', 0.85));
  }
  return rows;
}
