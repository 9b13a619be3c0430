/**
 * mcpscope beside the alternatives, on the same fast upstream in the same run, every path in its
 * own process: direct (the baseline), mcpscope with capture on, a bare Hono pass-through (the
 * floor for this stack) and mitmproxy's mitmdump in reverse-proxy mode (default, and with body
 * streaming on). Small tools/call latency (sequential) and throughput at 1, 10 and 50 keep-alive
 * clients, then SSE: delay to the first progress event and each event's lateness from the moment
 * the upstream wrote it, where a buffering proxy shows. Rounds are interleaved across paths so
 * that drift on a shared machine hits every path alike. Uses the tap benchmarks' load generator
 * and helpers (bench/support) so that the numbers compare with bench/tap-overhead.ts.
 */
import { request } from 'undici';
import { startHonoPassthrough, type BenchPath } from './hono-passthrough.js';
import { mitmdumpVersion, startMitmdump } from './mitmproxy.js';
import { measured, skipped, type BenchOptions, type BenchRow } from './report.js';
import { percentile } from './stats.js';
import { newAgent, sequential, throughput } from './support/load.js';
import { startHelper } from './support/processes.js';

const BENCH = 'alternatives';
const EVENTS = 20;
const GAP_MS = 5;
const wall = () => performance.timeOrigin + performance.now();

type Started = BenchPath | { skipped: string };

async function startPaths(upstreamOrigin: string): Promise<[string, Started][]> {
  const tap = await startHelper('./tap-process.ts', { UPSTREAM: upstreamOrigin });
  const mitm = `mitmdump ${mitmdumpVersion()}`;
  return [
    ['direct', { origin: upstreamOrigin, close: async () => {} }],
    ['mcpscope', { origin: tap.origin, close: () => tap.stop() }],
    ['hono pass-through', await startHonoPassthrough(upstreamOrigin)],
    [mitm, await startMitmdump(upstreamOrigin)],
    [`${mitm} streaming`, await startMitmdump(upstreamOrigin, { streaming: true })],
  ];
}

/** One SSE tools/call: ms to the first event, and the median lateness of its events. */
async function stream(agent: ReturnType<typeof newAgent>, origin: string): Promise<{ first: number; lateness: number }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 1 } } });
  const start = wall();
  const res = await request(`${origin}/mcp?sse=1`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body, dispatcher: agent });
  let buf = '';
  let first = NaN;
  const late: number[] = [];
  for await (const chunk of res.body) {
    const at = wall();
    buf += (chunk as Buffer).toString();
    for (let end = buf.indexOf('\n\n'); end !== -1; end = buf.indexOf('\n\n')) {
      const sent = /"sentAt":([\d.]+)/.exec(buf.slice(0, end));
      buf = buf.slice(end + 2);
      if (!sent) continue;
      if (Number.isNaN(first)) first = at - start;
      late.push(at - Number(sent[1]));
    }
  }
  late.sort((a, b) => a - b);
  return { first, lateness: percentile(late, 50) };
}

const push = <K, T>(m: Map<K, T[]>, k: K, v: T) => m.set(k, [...(m.get(k) ?? []), v]);

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const calls = options.smoke ? 50 : 300;
  const concurrencies = options.smoke ? [1, 5] : [1, 10, 50];
  const streams = options.smoke ? 3 : 10;
  const upstream = await startHelper('./fast-upstream.ts', { EVENTS: String(EVENTS), GAP_MS: String(GAP_MS) });
  const paths = await startPaths(upstream.origin);
  const live = paths.filter((p): p is [string, BenchPath] => !('skipped' in p[1]));
  const rows: BenchRow[] = [];
  try {
    const p50 = new Map<string, number[]>();
    const p99 = new Map<string, number[]>();
    const rps = new Map<string, Map<number, number[]>>();
    const first = new Map<string, number[]>();
    const lateness = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of live) {
        const agent = newAgent(1);
        await sequential(agent, `${path.origin}/mcp`, Math.min(100, calls)); // warm-up
        const l = await sequential(agent, `${path.origin}/mcp`, calls);
        push(p50, name, percentile(l, 50));
        push(p99, name, percentile(l, 99));
        for (let s = 0; s < streams; s++) {
          const r = await stream(agent, path.origin);
          push(first, name, r.first);
          push(lateness, name, r.lateness);
        }
        await agent.close();
        for (const clients of concurrencies) {
          const per = Math.max(20, Math.floor((options.smoke ? 200 : 1000) / clients));
          if (!rps.has(name)) rps.set(name, new Map());
          push(rps.get(name)!, clients, await throughput(`${path.origin}/mcp`, clients, per));
        }
      }
    }
    const med = (xs: number[]) => measured({ bench: BENCH, metric: '', unit: '' }, xs).value;
    const vs = (name: string, value: number) => (name === 'direct' ? {} : { baseline: { name: 'direct', value } });
    const top = concurrencies[concurrencies.length - 1]!;
    for (const [name, path] of paths) {
      if ('skipped' in path) {
        rows.push(skipped(BENCH, `all rows, ${name}`, path.skipped));
        continue;
      }
      const ours = name === 'mcpscope';
      const lat50 = measured({ bench: BENCH, metric: `tools/call p50, sequential, ${name}`, unit: 'ms', ...vs(name, med(p50.get('direct')!)) }, p50.get(name)!);
      const lat99 = measured({ bench: BENCH, metric: `tools/call p99, sequential, ${name}`, unit: 'ms', ...vs(name, med(p99.get('direct')!)) }, p99.get(name)!);
      if (ours) {
        Object.assign(lat50, { budget: '≤ direct + 1 ms', met: lat50.value - lat50.baseline!.value <= 1 });
        Object.assign(lat99, { budget: '≤ direct + 5 ms', met: lat99.value - lat99.baseline!.value <= 5 });
      }
      rows.push(lat50, lat99);
      for (const clients of concurrencies) {
        const row = measured({ bench: BENCH, metric: `tools/call rate, ${clients} client${clients === 1 ? '' : 's'}, ${name}`, unit: 'req/s', ratioAs: '%', ...vs(name, med(rps.get('direct')!.get(clients)!)) }, rps.get(name)!.get(clients)!);
        if (ours && clients === top) Object.assign(row, { budget: '≥ 85 % of direct', met: row.value / row.baseline!.value >= 0.85 });
        rows.push(row);
      }
      const sse = `SSE ${EVENTS} events every ${GAP_MS} ms, ${name}`;
      const f = measured({ bench: BENCH, metric: `${sse}: first event after`, unit: 'ms', ...vs(name, med(first.get('direct')!)) }, first.get(name)!);
      if (ours) Object.assign(f, { budget: '≤ direct + 2 ms', met: f.value - f.baseline!.value <= 2 });
      rows.push(f, measured({ bench: BENCH, metric: `${sse}: event lateness (median)`, unit: 'ms', ...vs(name, med(lateness.get('direct')!)) }, lateness.get(name)!));
    }
  } finally {
    for (const [, path] of live) await path.close();
    await upstream.stop();
  }
  // Group by metric kind, then by path, so each comparison reads top to bottom.
  const kind = (r: BenchRow) => r.metric.replace(/, [^,]*$/, '');
  const order = [...new Set(rows.map(kind))];
  return rows.sort((a, b) => order.indexOf(kind(a)) - order.indexOf(kind(b)));
}
