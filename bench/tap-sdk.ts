/**
 * The tap in front of a real MCP server: the embedded demo server (the official SDK's
 * StreamableHTTPServerTransport, stateful sessions, SSE answers) in its own process, reached
 * directly, through mcpscope with capture on and off, and through the node pass-through and node:http pipe floors.
 * Each client opens its own MCP session, then calls `tools/call` in a loop. Here the server does
 * the work a user's server does per call, so the throughput ratio is the one a user feels.
 * Budget (DESIGN.md): throughput through the tap ≥ 85 % of direct at 50 concurrent clients.
 */
import { startPaths, type PathKind } from './paths.js';
import type { BenchOptions, BenchRow } from './report.js';
import { loadRows, runLoadRounds, type Samples } from './samples.js';
import { startHelper } from './support/processes.js';

const BENCH = 'tap, SDK server';
const PATHS: PathKind[] = ['direct', 'mcpscope', 'capture off', 'node', 'node pipe'];

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const concurrencies = options.smoke ? [1, 5] : [1, 10, 50];
  const callsPerRun = options.smoke ? 100 : 600;
  const demo = await startHelper('./demo-process.ts');
  const paths = await startPaths(PATHS, demo);
  let samples: Samples;
  try {
    samples = await runLoadRounds(paths.live, { rounds, concurrencies, callsPerRun, warmUp: 20, sessions: true });
  } finally {
    await paths.close();
    await demo.stop();
  }
  const top = concurrencies[concurrencies.length - 1]!;
  const names = paths.live.map(([name]) => name);
  return loadRows(BENCH, samples, names, concurrencies, ['p50', 'rate'], (path, metric, clients) =>
    path === 'mcpscope' && metric === 'rate' && clients === top ? { budget: '≥ 85 % of direct', met: (v, base) => v / base >= 0.85 } : undefined,
  );
}
