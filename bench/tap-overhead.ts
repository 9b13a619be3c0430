/**
 * Added latency of the tap: the same tools/call, directly against the demo server and through
 * mcpscope with capture on, sequentially (latency) and at several concurrencies (throughput).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemoServer } from '@mcpscope/proxy/demo';
import { startMcpscope } from '@mcpscope/proxy/server';
import { fmt, percentile, printTable, spread } from './stats.js';

const CALLS = 400;
const ROUNDS = 3;

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

async function latencies(c: Client, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await c.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 100 } });
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

async function throughput(url: string, concurrency: number, perClient: number): Promise<number> {
  const clients = await Promise.all(Array.from({ length: concurrency }, () => client(url)));
  const t = performance.now();
  await Promise.all(clients.map((c) => latencies(c, perClient)));
  const rps = (concurrency * perClient) / ((performance.now() - t) / 1000);
  await Promise.all(clients.map((c) => c.close()));
  return rps;
}

export async function benchTapOverhead() {
  const demo = await startDemoServer();
  const app = await startMcpscope({ target: demo.url, db: ':memory:', port: 0, uiPort: 0 });
  const paths = { direct: demo.url, tap: app.mcpUrl };
  const lat: Record<string, { p50: number[]; p99: number[] }> = { direct: { p50: [], p99: [] }, tap: { p50: [], p99: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of Object.entries(paths)) {
      const c = await client(url);
      await latencies(c, 50); // warm-up
      const l = await latencies(c, CALLS);
      lat[name]!.p50.push(percentile(l, 50));
      lat[name]!.p99.push(percentile(l, 99));
      await c.close();
    }
  }
  const rows: (string | number)[][] = [];
  const added50 = lat.tap!.p50.map((v, i) => v - lat.direct!.p50[i]!);
  const added99 = lat.tap!.p99.map((v, i) => v - lat.direct!.p99[i]!);
  for (const name of ['direct', 'tap'] as const) {
    const p50 = spread(lat[name]!.p50);
    const p99 = spread(lat[name]!.p99);
    rows.push([name, `${fmt(p50.median)} (${fmt(p50.min)}–${fmt(p50.max)})`, `${fmt(p99.median)} (${fmt(p99.min)}–${fmt(p99.max)})`, fmt(p50.median / spread(lat.direct!.p50).median)]);
  }
  printTable(`Tap latency, sequential tools/call, ${CALLS} calls × ${ROUNDS} rounds (ms; median (min–max) over rounds)`, ['path', 'p50', 'p99', 'p50 ratio vs direct'], rows);
  const a50 = spread(added50);
  const a99 = spread(added99);
  console.log(`added by the tap: p50 ${fmt(a50.median)} ms (budget ≤ 1 ms: ${a50.median <= 1 ? 'met' : 'NOT met'}), p99 ${fmt(a99.median)} ms (budget ≤ 5 ms: ${a99.median <= 5 ? 'met' : 'NOT met'})`);

  const tput: (string | number)[][] = [];
  const tputResults: Record<string, Record<string, number>> = {};
  for (const concurrency of [1, 10, 50]) {
    const per = Math.max(10, Math.floor(600 / concurrency));
    const direct = await throughput(paths.direct, concurrency, per);
    const tap = await throughput(paths.tap, concurrency, per);
    tputResults[concurrency] = { direct, tap };
    const ratio = tap / direct;
    tput.push([concurrency, fmt(direct, 0), fmt(tap, 0), `${fmt(ratio * 100, 1)} %`, concurrency === 50 ? (ratio >= 0.85 ? 'met' : 'NOT met') : '']);
  }
  printTable('Throughput, tools/call (requests/s)', ['clients', 'direct', 'tap', 'tap / direct', 'budget ≥ 85 % at 50'], tput);
  await app.close();
  await demo.close();
  return { latency: lat, addedP50: a50, addedP99: a99, throughput: tputResults };
}
