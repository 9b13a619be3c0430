/**
 * Collects one number per round for each (metric, path) and builds the "same run" baseline of a
 * row: every path's median is compared with the baseline path's median from the same rounds.
 */
import { percentile, spread } from './stats.js';
import type { BenchRow } from './report.js';
import type { BenchPath } from './paths.js';
import { load } from './support/load.js';

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

/**
 * The rows of a load benchmark: for each concurrency, each metric, every path (so each
 * comparison reads top to bottom), against `direct` from the same rounds. Samples are keyed
 * `${metric} ${clients}`.
 */
export function loadRows(
  bench: string,
  samples: Samples,
  paths: readonly string[],
  concurrencies: readonly number[],
  metrics: readonly LoadMetric[],
  budgetOf: (path: string, metric: LoadMetric, clients: number) => RowBudget | undefined,
): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const clients of concurrencies) {
    const who = `${clients} client${clients === 1 ? '' : 's'}`;
    for (const metric of metrics) {
      const key = `${metric} ${clients}`;
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
        const run = await load(url, clients, Math.max(20, Math.floor(plan.callsPerRun / clients)), plan.sessions);
        samples.add(`p50 ${clients}`, name, percentile(run.latencies, 50));
        samples.add(`p99 ${clients}`, name, percentile(run.latencies, 99));
        samples.add(`rate ${clients}`, name, run.rps);
      }
    }
  }
  return samples;
}
