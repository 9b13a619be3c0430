/**
 * SSE through the tap: a tools/call answered by a stream of progress notifications written at a
 * steady pace (every GAP_MS), directly and through the tap with capture on. Measures the delay
 * to the first event after the request is sent, and each event's delay from the moment the
 * upstream wrote it (both processes read the same wall clock) to the moment the client parsed
 * it. A buffering proxy would show here as delay growing with the stream.
 */
import { request } from 'undici';
import { fmt, percentile, printTable, spread } from './stats.js';
import { startHelper, type Helper } from './support/processes.js';
import { newAgent } from './support/load.js';

const EVENTS = 20;
const GAP_MS = 5;
const STREAMS = 40;
const ROUNDS = 3;
const now = () => performance.timeOrigin + performance.now();
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 1 } } });

interface StreamTimes {
  first: number;
  perEvent: number[];
}

async function oneStream(agent: ReturnType<typeof newAgent>, url: string): Promise<StreamTimes> {
  const start = now();
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: BODY, dispatcher: agent });
  let buf = '';
  let first = NaN;
  const perEvent: number[] = [];
  for await (const chunk of res.body) {
    const at = now();
    buf += chunk.toString();
    let end: number;
    while ((end = buf.indexOf('\n\n')) !== -1) {
      const event = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const sent = /"sentAt":([\d.]+)/.exec(event);
      if (!sent) continue;
      if (Number.isNaN(first)) first = at - start;
      perEvent.push(at - Number(sent[1]));
    }
  }
  return { first, perEvent };
}

export async function benchTapSse() {
  const upstream = await startHelper('./fast-upstream.ts', { EVENTS: String(EVENTS), GAP_MS: String(GAP_MS) });
  const helpers: Helper[] = [upstream];
  try {
    const tap = await startHelper('./tap-process.ts', { UPSTREAM: upstream.origin });
    helpers.push(tap);
    const paths = { direct: upstream.origin, 'tap (capture on)': tap.origin };
    const names = Object.keys(paths) as (keyof typeof paths)[];
    const results = Object.fromEntries(names.map((n) => [n, { first: [] as number[], event50: [] as number[], event99: [] as number[] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of names) {
        const agent = newAgent(1);
        await oneStream(agent, `${paths[name]}/mcp?sse=1`); // warm-up
        const firsts: number[] = [];
        const events: number[] = [];
        for (let i = 0; i < STREAMS; i++) {
          const t = await oneStream(agent, `${paths[name]}/mcp?sse=1`);
          firsts.push(t.first);
          events.push(...t.perEvent);
        }
        await agent.close();
        firsts.sort((a, b) => a - b);
        events.sort((a, b) => a - b);
        results[name]!.first.push(percentile(firsts, 50));
        results[name]!.event50.push(percentile(events, 50));
        results[name]!.event99.push(percentile(events, 99));
      }
    }
    const med = (n: string, k: 'first' | 'event50' | 'event99') => spread(results[n]![k]).median;
    printTable(
      `SSE, ${STREAMS} streams × ${EVENTS + 1} events every ${GAP_MS} ms × ${ROUNDS} rounds (ms; median over rounds)`,
      ['path', 'first event p50', 'event delay p50', 'event delay p99'],
      names.map((n) => [n, fmt(med(n, 'first'), 3), fmt(med(n, 'event50'), 3), fmt(med(n, 'event99'), 3)]),
    );
    const addedFirst = med('tap (capture on)', 'first') - med('direct', 'first');
    console.log(`tap adds to the first event ${fmt(addedFirst, 3)} ms (budget ≤ 2 ms: ${addedFirst <= 2 ? 'met' : 'NOT met'}), to each event p50 ${fmt(med('tap (capture on)', 'event50') - med('direct', 'event50'), 3)} ms`);
    return { results, addedFirst };
  } finally {
    for (const h of helpers.reverse()) await h.stop();
  }
}
