/**
 * mcpscope beside the alternatives, on the same upstream in the same run: direct (the baseline),
 * through mcpscope (capture on), through a bare Hono pass-through (the floor for this stack) and
 * through mitmproxy's mitmdump in reverse-proxy mode. Tools/call latency and throughput at 1, 10
 * and 50 concurrent SDK clients, then SSE first-event and per-event delay with a server that
 * streams progress at a steady pace (where a buffering proxy shows).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDemoServer } from '@mcpscope/proxy/demo';
import { startMcpscope } from '@mcpscope/proxy/server';
import { startHonoPassthrough, type BenchPath } from './hono-passthrough.js';
import { mitmdumpVersion, startMitmdump } from './mitmproxy.js';
import { measured, skipped, type BenchOptions, type BenchRow } from './report.js';
import { percentile } from './stats.js';
import { startStreamServer, wallMs } from './stream-server.js';

const BENCH = 'alternatives';
type PathStarter = (target: string) => Promise<BenchPath | { skipped: string }>;

async function startMcpscopePath(target: string): Promise<BenchPath> {
  const app = await startMcpscope({ target, db: ':memory:', port: 0, uiPort: 0 });
  return { url: app.mcpUrl, close: () => app.close() };
}

/** Every path but direct, in table order. */
function alternatives(): [string, PathStarter][] {
  const mitm = `mitmdump ${mitmdumpVersion()}`;
  return [
    ['mcpscope', startMcpscopePath],
    ['hono pass-through', startHonoPassthrough],
    [mitm, (t) => startMitmdump(t)],
    [`${mitm} streaming`, (t) => startMitmdump(t, { streaming: true })],
  ];
}

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

interface LoadResult {
  p50: number;
  p99: number;
  rps: number;
}

/** `concurrency` clients each make `perClient` sequential tools/call; latencies pooled. */
async function load(url: string, concurrency: number, perClient: number): Promise<LoadResult> {
  const clients = await Promise.all(Array.from({ length: concurrency }, () => client(url)));
  const call = (c: Client) => c.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 100 } });
  await Promise.all(clients.map(async (c) => { for (let i = 0; i < 5; i++) await call(c); })); // warm-up
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < perClient; i++) {
        const t = performance.now();
        await call(c);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), rps: latencies.length / seconds };
}

interface StreamResult {
  first: number;
  perEvent: number;
}

/** One `ticks` call: ms until the first event arrives, and the median lateness of every event. */
async function stream(url: string, count: number, intervalMs: number): Promise<StreamResult> {
  const c = await client(url);
  const lateness: number[] = [];
  let first = NaN;
  const started = performance.now();
  await c.callTool({ name: 'ticks', arguments: { count, intervalMs } }, undefined, {
    onprogress: (p) => {
      if (Number.isNaN(first)) first = performance.now() - started;
      lateness.push(wallMs() - Number(p.message));
    },
  });
  await c.close();
  lateness.sort((a, b) => a - b);
  return { first, perEvent: percentile(lateness, 50) };
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const concurrencies = options.smoke ? [1, 5] : [1, 10, 50];
  const totalCalls = options.smoke ? 40 : 600;
  const rows: BenchRow[] = [];

  const demo = await startDemoServer();
  const paths: [string, BenchPath | { skipped: string }][] = [['direct', { url: demo.url, close: async () => {} }]];
  for (const [name, start] of alternatives()) paths.push([name, await start(demo.url)]);
  for (const concurrency of concurrencies) {
    const per = Math.max(5, Math.floor(totalCalls / concurrency));
    const results = new Map<string, LoadResult[]>();
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of paths) {
        if ('skipped' in path) continue;
        const r = await load(path.url, concurrency, per);
        results.set(name, [...(results.get(name) ?? []), r]);
      }
    }
    rows.push(...loadRows(paths, results, concurrency, concurrencies[concurrencies.length - 1]!));
  }
  for (const [, path] of paths) if (!('skipped' in path)) await path.close();
  await demo.close();

  const ticks = await startStreamServer();
  const count = options.smoke ? 5 : 20;
  const interval = 20;
  const streamPaths: [string, BenchPath | { skipped: string }][] = [['direct', { url: ticks.url, close: async () => {} }]];
  for (const [name, start] of alternatives()) streamPaths.push([name, await start(ticks.url)]);
  const streams = new Map<string, StreamResult[]>();
  for (let round = 0; round < rounds * (options.smoke ? 1 : 3); round++) {
    for (const [name, path] of streamPaths) {
      if ('skipped' in path) continue;
      streams.set(name, [...(streams.get(name) ?? []), await stream(path.url, count, interval)]);
    }
  }
  const direct = streams.get('direct')!;
  const directFirst = measured({ bench: BENCH, metric: '', unit: 'ms' }, direct.map((r) => r.first)).value;
  const directPer = measured({ bench: BENCH, metric: '', unit: 'ms' }, direct.map((r) => r.perEvent)).value;
  for (const [name, path] of streamPaths) {
    const label = `SSE ${count} events every ${interval} ms, ${name}`;
    if ('skipped' in path) {
      rows.push(skipped(BENCH, `${label}: first event`, path.skipped));
      continue;
    }
    const r = streams.get(name)!;
    const base = name === 'direct' ? {} : { baseline: { name: 'direct', value: directFirst } };
    const first = measured({ bench: BENCH, metric: `${label}: first event after`, unit: 'ms', ...base }, r.map((x) => x.first));
    if (name === 'mcpscope') Object.assign(first, { budget: '≤ direct + 2 ms', met: first.value - directFirst <= 2 });
    rows.push(first);
    rows.push(measured({ bench: BENCH, metric: `${label}: per-event lateness (median)`, unit: 'ms', ...(name === 'direct' ? {} : { baseline: { name: 'direct', value: directPer } }) }, r.map((x) => x.perEvent)));
  }
  for (const [, path] of streamPaths) if (!('skipped' in path)) await path.close();
  await ticks.close();
  return rows;
}

function loadRows(paths: [string, BenchPath | { skipped: string }][], results: Map<string, LoadResult[]>, concurrency: number, top: number): BenchRow[] {
  const rows: BenchRow[] = [];
  const direct = results.get('direct')!;
  const med = (xs: number[]) => measured({ bench: BENCH, metric: '', unit: '' }, xs).value;
  const base = { p50: med(direct.map((r) => r.p50)), p99: med(direct.map((r) => r.p99)), rps: med(direct.map((r) => r.rps)) };
  const who = (n: number) => `${n} client${n === 1 ? '' : 's'}`;
  for (const [name, path] of paths) {
    if ('skipped' in path) {
      rows.push(skipped(BENCH, `tools/call, ${who(concurrency)}, ${name}`, path.skipped));
      continue;
    }
    const r = results.get(name)!;
    const isDirect = name === 'direct';
    const ours = name === 'mcpscope';
    const vs = (value: number) => (isDirect ? {} : { baseline: { name: 'direct', value } });
    const p50 = measured({ bench: BENCH, metric: `tools/call p50, ${who(concurrency)}, ${name}`, unit: 'ms', ...vs(base.p50) }, r.map((x) => x.p50));
    const p99 = measured({ bench: BENCH, metric: `tools/call p99, ${who(concurrency)}, ${name}`, unit: 'ms', ...vs(base.p99) }, r.map((x) => x.p99));
    const rps = measured({ bench: BENCH, metric: `tools/call rate, ${who(concurrency)}, ${name}`, unit: 'req/s', ratioAs: '%', ...vs(base.rps) }, r.map((x) => x.rps));
    if (ours && concurrency === 1) {
      Object.assign(p50, { budget: '≤ direct + 1 ms', met: p50.value - base.p50 <= 1 });
      Object.assign(p99, { budget: '≤ direct + 5 ms', met: p99.value - base.p99 <= 5 });
    }
    if (ours && concurrency === top) Object.assign(rps, { budget: '≥ 85 % of direct', met: rps.value / base.rps >= 0.85 });
    rows.push(p50, p99, rps);
  }
  return rows;
}
