/**
 * What the tap costs on small tools/call traffic: the same fast upstream reached through every
 * path in bench/paths.ts (direct, mcpscope with capture on and off, the node and Hono
 * pass-through floors, mitmdump default and streaming), at 1, 10 and 50 concurrent keep-alive
 * clients: latency p50/p99 over every call of the run, and requests/s. Rounds interleave the
 * paths so that drift on a shared machine hits every path alike; each row is the median over
 * rounds with the spread over rounds. Budgets (DESIGN.md): at one client, p50 ≤ direct + 1 ms and
 * p99 ≤ direct + 5 ms; at 50 clients, throughput ≥ 85 % of direct.
 *
 * The fast upstream does almost nothing, so this is the harshest ratio a proxy can face: on two
 * cores the proxy, the upstream and the load generator share the CPU, and every proxy does at
 * least the upstream's HTTP work again. The floors show how much of that is the stack's; tap-sdk
 * shows the same budget against a real MCP server.
 */
import { ALL_PATHS, startPaths } from './paths.js';
import { skipped, type BenchOptions, type BenchRow } from './report.js';
import { startHelper } from './support/processes.js';
import { loadRows, runLoadRounds, type Samples } from './samples.js';

const BENCH = 'tap';

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const concurrencies = options.smoke ? [1, 5] : [1, 10, 50];
  const callsPerRun = options.smoke ? 200 : 1000;
  const upstream = await startHelper('./fast-upstream.ts');
  const paths = await startPaths(ALL_PATHS, upstream);
  let samples: Samples;
  try {
    samples = await runLoadRounds(paths.live, { rounds, concurrencies, callsPerRun, warmUp: options.smoke ? 20 : 100 });
  } finally {
    await paths.close();
    await upstream.stop();
  }

  const top = concurrencies[concurrencies.length - 1]!;
  const skippedRows = paths.all.flatMap(([name, path]) => ('skipped' in path ? [skipped(BENCH, `every row, ${name}`, path.skipped)] : []));
  const names = paths.live.map(([name]) => name);
  return [
    ...skippedRows,
    ...loadRows(BENCH, samples, names, concurrencies, ['p50', 'p99', 'rate'], (path, metric, clients) => {
      if (path !== 'mcpscope') return undefined;
      if (clients === 1 && metric === 'p50') return { budget: '≤ direct + 1 ms', met: (v, base) => v - base <= 1 };
      if (clients === 1 && metric === 'p99') return { budget: '≤ direct + 5 ms', met: (v, base) => v - base <= 5 };
      if (clients === top && metric === 'rate') return { budget: '≥ 85 % of direct', met: (v, base) => v / base >= 0.85 };
      return undefined;
    }),
  ];
}
