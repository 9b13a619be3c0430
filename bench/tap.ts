/**
 * What the tap costs on small tools/call traffic: the same fast upstream reached through every
 * path in bench/paths.ts (direct, mcpscope with capture on and off, the node and Hono
 * pass-through floors, mitmdump default and streaming), at 1, 10 and 50 concurrent keep-alive
 * clients: latency p50/p99 over every call of the run, and requests/s. Rounds interleave the
 * paths so that drift on a shared machine hits every path alike; each row is the median over
 * rounds with the spread over rounds. Budgets (DESIGN.md): at one client, p50 ≤ direct + 1 ms and
 * p99 ≤ direct + 5 ms; at 50 clients, throughput ≥ 85 % of direct. Issue 18's budgets read the
 * tap against the fastest pass-through floor instead (floorRows): at one client, the p50 it adds
 * ≤ the floor's + 0.1 ms; at 50 clients, ≥ 60 % of the floor's rate and ≥ 85 % of capture off's.
 * The same rounds run a second time with wrk at 1 and 50 clients, so no number depends on one
 * load generator's own overhead (the undici client shares the two cores with the proxy).
 *
 * The fast upstream does almost nothing, so this is the harshest ratio a proxy can face: on two
 * cores the proxy, the upstream and the load generator share the CPU, and every proxy does at
 * least the upstream's HTTP work again. The floors show how much of that is the stack's; tap-sdk
 * shows the same budget against a real MCP server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_PATHS, FLOORS, pathName, startPaths } from './paths.js';
import { skipped, type BenchOptions, type BenchRow } from './report.js';
import { startHelper } from './support/processes.js';
import { wrkAvailable } from './support/wrk.js';
import { floorRows, loadRows, runLoadRounds, type RowBudget, type LoadMetric, type Samples } from './samples.js';

const BENCH = 'tap';

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const concurrencies = options.smoke ? [1, 5] : [1, 10, 50];
  const callsPerRun = options.smoke ? 200 : 1000;
  const upstream = await startHelper('./fast-upstream.ts');
  // On a capture file, as users run it (the default store is a file in the data directory; only a
  // file's capture engine runs on a worker, capture/worker-engine.ts). WAL with synchronous=NORMAL:
  // no fsync per write, so the disk's speed barely enters.
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-tap-'));
  const paths = await startPaths(ALL_PATHS, upstream, { DB: join(dir, 'capture.db') });
  const wrk = wrkAvailable();
  const wrkConcurrencies = [1, concurrencies[concurrencies.length - 1]!];
  let samples: Samples;
  let wrkSamples: Samples | undefined;
  try {
    samples = await runLoadRounds(paths.live, { rounds, concurrencies, callsPerRun, warmUp: options.smoke ? 20 : 100 });
    if (wrk.ok) wrkSamples = await runLoadRounds(paths.live, { rounds, concurrencies: wrkConcurrencies, callsPerRun, warmUp: 20, generator: 'wrk', wrkSeconds: options.smoke ? 1 : 2 });
  } finally {
    await paths.close();
    rmSync(dir, { recursive: true, force: true });
    await upstream.stop();
  }

  const top = concurrencies[concurrencies.length - 1]!;
  const skippedRows = paths.all.flatMap(([name, path]) => ('skipped' in path ? [skipped(BENCH, `every row, ${name}`, path.skipped)] : []));
  const names = paths.live.map(([name]) => name);
  const floors = FLOORS.map(pathName);
  const budgets = (path: string, metric: LoadMetric, clients: number): RowBudget | undefined => {
    if (path !== 'mcpscope') return undefined;
    if (clients === 1 && metric === 'p50') return { budget: '≤ direct + 1 ms', met: (v, base) => v - base <= 1 };
    if (clients === 1 && metric === 'p99') return { budget: '≤ direct + 5 ms', met: (v, base) => v - base <= 5 };
    if (clients === top && metric === 'rate') return { budget: '≥ 85 % of direct', met: (v, base) => v / base >= 0.85 };
    return undefined;
  };
  return [
    ...skippedRows,
    ...loadRows(BENCH, samples, names, concurrencies, ['p50', 'p99', 'rate'], budgets),
    ...floorRows(BENCH, samples, names, floors, top),
    ...(wrkSamples
      ? [...loadRows(BENCH, wrkSamples, names, wrkConcurrencies, ['p50', 'p99', 'rate'], () => undefined, 'wrk'), ...floorRows(BENCH, wrkSamples, names, floors, top, 'wrk')]
      : [skipped(BENCH, 'every wrk row', wrk.ok ? 'no samples' : wrk.reason)]),
  ];
}
