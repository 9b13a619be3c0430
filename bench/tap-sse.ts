/**
 * Streaming through every path: a tools/call answered by an SSE stream of progress notifications
 * written at a steady pace (EVENTS events, one every GAP_MS, each stamped with the wall-clock time
 * the upstream wrote it). Measures the delay from sending the call to the first event, and each
 * event's lateness from the moment the upstream wrote it to the moment the client parsed it (both
 * processes read the same clock). A buffering proxy shows here: mitmdump by default holds the
 * whole stream until it ends. Budget (DESIGN.md): the first event within 2 ms of direct.
 */
import { request } from 'undici';
import { ALL_PATHS, startPaths } from './paths.js';
import { measured, skipped, type BenchOptions, type BenchRow } from './report.js';
import { Samples } from './samples.js';
import { percentile } from './stats.js';
import { newAgent } from './support/load.js';
import { startHelper } from './support/processes.js';

const BENCH = 'tap, SSE';
const EVENTS = 20;
const GAP_MS = 5;
const wall = () => performance.timeOrigin + performance.now();
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 1 } } });

/** One streamed call: ms to the first event, and every event's lateness. */
async function stream(agent: ReturnType<typeof newAgent>, origin: string): Promise<{ first: number; lateness: number[] }> {
  const start = wall();
  const res = await request(`${origin}/mcp?sse=1`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: BODY, dispatcher: agent });
  let buf = '';
  let first = NaN;
  const lateness: number[] = [];
  for await (const chunk of res.body) {
    const at = wall();
    buf += (chunk as Buffer).toString();
    for (let end = buf.indexOf('\n\n'); end !== -1; end = buf.indexOf('\n\n')) {
      const sent = /"sentAt":([\d.]+)/.exec(buf.slice(0, end));
      buf = buf.slice(end + 2);
      if (!sent) continue;
      if (Number.isNaN(first)) first = at - start;
      lateness.push(at - Number(sent[1]));
    }
  }
  return { first, lateness };
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const streams = options.smoke ? 3 : 15;
  const upstream = await startHelper('./fast-upstream.ts', { EVENTS: String(EVENTS), GAP_MS: String(GAP_MS) });
  const paths = await startPaths(ALL_PATHS, upstream);
  const samples = new Samples();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of paths.live) {
        const agent = newAgent(1);
        await stream(agent, path.origin); // warm-up
        const firsts: number[] = [];
        const lateness: number[] = [];
        for (let i = 0; i < streams; i++) {
          const r = await stream(agent, path.origin);
          firsts.push(r.first);
          lateness.push(...r.lateness);
        }
        await agent.close();
        firsts.sort((a, b) => a - b);
        lateness.sort((a, b) => a - b);
        samples.add('first', name, percentile(firsts, 50));
        samples.add('late50', name, percentile(lateness, 50));
        samples.add('late99', name, percentile(lateness, 99));
      }
    }
  } finally {
    await paths.close();
    await upstream.stop();
  }
  const rows: BenchRow[] = paths.all.flatMap(([name, path]) => ('skipped' in path ? [skipped(BENCH, `every row, ${name}`, path.skipped)] : []));
  const what = `${EVENTS} events every ${GAP_MS} ms`;
  const metrics = [
    ['first', `${what}: first event after`],
    ['late50', `${what}: event lateness p50`],
    ['late99', `${what}: event lateness p99`],
  ] as const;
  for (const [key, label] of metrics) {
    for (const [name] of paths.live) {
      const row = measured({ bench: BENCH, metric: `${label}, ${name}`, unit: 'ms', ...samples.versus('direct', name)(key) }, samples.get(key, name));
      if (key === 'first' && name === 'mcpscope' && row.baseline) Object.assign(row, { budget: '≤ direct + 2 ms', met: row.value - row.baseline.value <= 2 });
      rows.push(row);
    }
  }
  return rows;
}
