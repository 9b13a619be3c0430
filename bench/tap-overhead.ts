/**
 * What the tap costs: the same small tools/call against the same fast upstream, directly and
 * through three proxies, each in its own process as users run them:
 *   - node pass-through: undici request + pipe, no capture (the floor for the tap's approach);
 *   - hono pass-through: `hono/proxy` on @hono/node-server, no capture (the floor for a Hono +
 *     fetch proxy on this stack);
 *   - tap: mcpscope with capture on (in-memory SQLite).
 * Latency is sequential (p50/p99 per round, rounds interleaved so drift hits every path alike);
 * throughput runs 1, 10 and 50 concurrent keep-alive clients, paths interleaved over rounds,
 * median reported. Ratios are within one run.
 */
import { fmt, percentile, printTable, spread } from './stats.js';
import { startHelper, type Helper } from './support/processes.js';
import { newAgent, sequential, throughput } from './support/load.js';

const CALLS = 1500;
const ROUNDS = 3;

export async function benchTapOverhead() {
  const upstream = await startHelper('./fast-upstream.ts');
  const helpers: Helper[] = [upstream];
  try {
    const node = await startHelper('./node-pass-through.ts', { UPSTREAM: upstream.origin });
    const hono = await startHelper('./hono-pass-through.ts', { UPSTREAM: upstream.origin });
    const tap = await startHelper('./tap-process.ts', { UPSTREAM: upstream.origin });
    helpers.push(node, hono, tap);
    const paths = { direct: upstream.origin, 'node pass-through': node.origin, 'hono pass-through': hono.origin, 'tap (capture on)': tap.origin };
    const names = Object.keys(paths) as (keyof typeof paths)[];

    const lat = Object.fromEntries(names.map((n) => [n, { p50: [] as number[], p99: [] as number[] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of names) {
        const agent = newAgent(1);
        await sequential(agent, `${paths[name]}/mcp`, 200); // warm-up
        const l = await sequential(agent, `${paths[name]}/mcp`, CALLS);
        lat[name]!.p50.push(percentile(l, 50));
        lat[name]!.p99.push(percentile(l, 99));
        await agent.close();
      }
    }
    const direct50 = spread(lat.direct!.p50).median;
    const direct99 = spread(lat.direct!.p99).median;
    printTable(
      `Latency, sequential tools/call, ${CALLS} calls × ${ROUNDS} rounds (ms; median over rounds (min–max))`,
      ['path', 'p50', 'p99', 'added p50', 'added p99'],
      names.map((n) => {
        const p50 = spread(lat[n]!.p50);
        const p99 = spread(lat[n]!.p99);
        return [n, `${fmt(p50.median, 3)} (${fmt(p50.min, 3)}–${fmt(p50.max, 3)})`, `${fmt(p99.median, 3)} (${fmt(p99.min, 3)}–${fmt(p99.max, 3)})`, n === 'direct' ? '' : fmt(p50.median - direct50, 3), n === 'direct' ? '' : fmt(p99.median - direct99, 3)];
      }),
    );
    const added50 = spread(lat['tap (capture on)']!.p50).median - direct50;
    const added99 = spread(lat['tap (capture on)']!.p99).median - direct99;
    console.log(`tap adds p50 ${fmt(added50, 3)} ms (budget ≤ 1 ms: ${added50 <= 1 ? 'met' : 'NOT met'}), p99 ${fmt(added99, 3)} ms (budget ≤ 5 ms: ${added99 <= 5 ? 'met' : 'NOT met'})`);

    const tput: Record<string, Record<string, number>> = {};
    const rows: (string | number)[][] = [];
    for (const clients of [1, 10, 50]) {
      const per = Math.max(40, Math.floor(2000 / clients));
      // Rounds interleave the paths; the median of each path is reported.
      const runs = Object.fromEntries(names.map((n) => [n, [] as number[]]));
      for (let round = 0; round < ROUNDS; round++) for (const name of names) runs[name]!.push(await throughput(`${paths[name]}/mcp`, clients, per));
      tput[clients] = Object.fromEntries(names.map((n) => [n, spread(runs[n]!).median]));
      const d = tput[clients]!.direct!;
      const ratio = tput[clients]!['tap (capture on)']! / d;
      rows.push([clients, ...names.map((n) => (n === 'direct' ? fmt(d, 0) : `${fmt(tput[clients]![n]!, 0)} (${fmt((tput[clients]![n]! / d) * 100, 0)} %)`)), clients === 50 ? (ratio >= 0.85 ? 'met' : 'NOT met') : '']);
    }
    printTable('Throughput against the fast upstream, tools/call (requests/s; % of direct)', ['clients', ...names, 'tap ≥ 85 % at 50'], rows);

    // The same through a real MCP server: the SDK demo server (sessions, SSE answers), where the
    // server's own work per call is what a user's server does.
    const demo = await startHelper('./demo-process.ts');
    const demoTap = await startHelper('./tap-process.ts', { UPSTREAM: demo.origin });
    helpers.push(demo, demoTap);
    const sdk: Record<string, { direct: number; tap: number }> = {};
    const sdkRows: (string | number)[][] = [];
    for (const clients of [1, 10, 50]) {
      const per = Math.max(20, Math.floor(1500 / clients));
      const directRuns: number[] = [];
      const tapRuns: number[] = [];
      await throughput(`${demo.origin}/mcp`, clients, 20, true); // warm both processes up
      await throughput(`${demoTap.origin}/mcp`, clients, 20, true);
      for (let round = 0; round < ROUNDS; round++) {
        directRuns.push(await throughput(`${demo.origin}/mcp`, clients, per, true));
        tapRuns.push(await throughput(`${demoTap.origin}/mcp`, clients, per, true));
      }
      const direct = spread(directRuns).median;
      const viaTap = spread(tapRuns).median;
      sdk[clients] = { direct, tap: viaTap };
      sdkRows.push([clients, fmt(direct, 0), fmt(viaTap, 0), `${fmt((viaTap / direct) * 100, 0)} %`, clients === 50 ? (viaTap / direct >= 0.85 ? 'met' : 'NOT met') : '']);
    }
    printTable('Throughput against the SDK demo server, tools/call (requests/s)', ['clients', 'direct', 'tap (capture on)', 'tap / direct', '≥ 85 % at 50'], sdkRows);
    return { latency: lat, addedP50: added50, addedP99: added99, throughput: tput, sdkThroughput: sdk };
  } finally {
    for (const h of helpers.reverse()) await h.stop();
  }
}
