/**
 * SQLite drivers: better-sqlite3 (native addon, the only choice on Node 20) against Node's
 * built-in node:sqlite (Node ≥ 22.16), each on the same Node binary, so the ratio is the driver's
 * and not the runtime's. Rows: ingest (INSERT in 256-row transactions into one WAL table, the
 * capture's shape), point lookups by key, pages of 100 rows by key and by an index, a scan calling
 * a JS function per row (the free-text filter), and the real capture pipeline on the driver
 * mcpscope picks on each Node (capture/sqlite.ts). Baseline: better-sqlite3 on the same Node.
 *
 * Node 22 and 24 come from the npm registry (release/node-runtimes.ts). better-sqlite3 for them
 * is compiled once per ABI and cached (bench/support/better-sqlite3-builds.ts); `--smoke` never
 * compiles and says so in the rows it cannot fill.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE_MAJORS, nodeRuntime, type NodeRuntime } from '@mcpscope/release/node-runtimes';
import { measured, skipped, type BenchOptions, type BenchRow } from './report.js';
import { betterSqlite3For } from './support/better-sqlite3-builds.js';
import { printTable, spread } from './stats.js';

const CHILD = fileURLToPath(new URL('./support/sqlite-driver-child.ts', import.meta.url));
const METRICS = [
  ['ingest', 'rows/s, INSERT in 256-row transactions (WAL)'],
  ['point', 'lookups/s, one row by key'],
  ['page', 'rows/s, pages of 100 by key'],
  ['index', 'rows/s, pages of 100 by an index'],
  ['scan', 'rows/s, scan calling a JS function per row'],
  ['pipeline', 'frames/s, mcpscope capture pipeline'],
] as const;

interface Measured {
  node: string;
  driver: string;
  sqlite: string;
  rates: Partial<Record<(typeof METRICS)[number][0], number[]>>;
}

function run(runtime: NodeRuntime, driver: string, rows: number, rounds: number, env: Record<string, string>): Measured {
  const out = execFileSync(runtime.node, ['--disable-warning=ExperimentalWarning', '--import', 'tsx', CHILD, driver, String(rows), String(rounds)], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Measured;
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rows = options.smoke ? 3_000 : 200_000;
  const rounds = options.smoke ? 1 : 3;
  const results: BenchRow[] = [];
  const table: string[][] = [];
  // The pipeline runs only on the driver mcpscope picks, so node:sqlite's pipeline is compared
  // with better-sqlite3's on Node 20 (another runtime: read that ratio with care).
  let pipelineReference: { name: string; value: number } | undefined;
  for (const major of NODE_MAJORS) {
    const runtime = nodeRuntime(major);
    const better = betterSqlite3For(runtime, !options.smoke);
    const hasNodeSqlite = major >= 22;
    // mcpscope's own pick on this Node (capture/sqlite.ts): node:sqlite where it exists.
    const picked = hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3';
    const base = better ? run(runtime, 'better-sqlite3', rows, rounds, { BETTER_SQLITE3: better, PIPELINE: picked === 'better-sqlite3' ? '1' : '0', MCPSCOPE_SQLITE: 'better-sqlite3' }) : undefined;
    const node = hasNodeSqlite ? run(runtime, 'node:sqlite', rows, rounds, { PIPELINE: '1', MCPSCOPE_SQLITE: 'node' }) : undefined;
    for (const [key, metric] of METRICS) {
      for (const m of [base, node]) {
        const values = m?.rates[key];
        if (!m || !values?.length) continue;
        const same = base?.rates[key];
        const reference = same?.length ? { name: `better-sqlite3, Node ${runtime.version}`, value: spread(same).median } : key === 'pipeline' ? pipelineReference : undefined;
        const row = measured(
          {
            bench: 'sqlite drivers',
            metric: `${metric}, ${m.driver} (SQLite ${m.sqlite}), Node ${runtime.version}`,
            unit: key === 'point' ? 'lookups/s' : key === 'pipeline' ? 'frames/s' : 'rows/s',
            ...(reference && m !== base ? { baseline: reference, ratioAs: '%' as const } : {}),
            ...(key === 'pipeline' ? { budget: '≥ 20,000 frames/s', met: spread(values).median >= 20_000 } : {}),
          },
          values,
        );
        results.push(row);
        if (key === 'pipeline' && m === base) pipelineReference = { name: `better-sqlite3, Node ${runtime.version}`, value: row.value };
        table.push([runtime.version, m.driver, key, row.value.toFixed(0), row.baseline ? `${((row.value / row.baseline.value) * 100).toFixed(0)} %` : '']);
      }
    }
    if (!better) results.push(skipped('sqlite drivers', `better-sqlite3 on Node ${runtime.version}`, 'no build for this ABI (a full run compiles one)'));
  }
  printTable(`SQLite drivers, ${rows} rows × ${rounds} rounds (median)`, ['node', 'driver', 'metric', 'rate', 'vs better-sqlite3'], table);
  return results;
}
