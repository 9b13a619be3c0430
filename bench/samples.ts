/**
 * Collects one number per round for each (metric, path) and builds the "same run" baseline of a
 * row: every path's median is compared with the baseline path's median from the same rounds.
 */
import { spread } from './stats.js';
import type { BenchRow } from './report.js';

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
