/**
 * A capture as a test, timed: the mock answering an SDK client (speed 0, so only the mock's own
 * work is measured) beside the real server it recorded, `verify` re-running the capture beside
 * the same calls made directly by the SDK client, and the matcher's lookups on a large capture.
 * The demo server (official SDK, stateful sessions, SSE answers) runs in this process, as does
 * the mock: both sides pay the same event-loop costs. No DESIGN.md budget: these rows say what a
 * user can expect (a mock is not slower than the server it stands in for; verify costs about
 * what the calls cost).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildCassette, CassetteMatcher, type Frame } from '@mcpscope/protocol';
import { startDemoServer } from '@mcpscope/proxy/demo';
import { startMcpscope } from '@mcpscope/proxy/server';
import { startMock } from '@mcpscope/proxy/mock';
import { verifyCapture } from '@mcpscope/proxy/verify';
import { measured, type BenchOptions, type BenchRow } from './report.js';
import { percentile } from './stats.js';

const BENCH = 'mock and verify';

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

/** The i-th call of a cycle of `distinct` different ones (the mock answers only what was captured). */
const call = (c: Client, i: number, distinct: number) => c.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 10 + (i % distinct), recipient: `r${i % distinct}` } });

/** p50 latency (ms) of `n` sequential calls over one session. */
async function latency(url: string, n: number, distinct: number): Promise<number> {
  const c = await client(url);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(c, i, distinct);
    times.push(performance.now() - t);
  }
  await c.close();
  return percentile(times.sort((a, b) => a - b), 50);
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const calls = options.smoke ? 20 : 500;
  const captured = options.smoke ? 10 : 50;
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-mock-'));
  const file = join(dir, 'capture.db');
  const demo = await startDemoServer();
  try {
    // The capture: one SDK session of `captured` tools/call through the tap.
    const tap = await startMcpscope({ target: demo.url, db: file, port: 0, uiPort: 0 });
    const c = await client(tap.mcpUrl);
    for (let i = 0; i < captured; i++) await call(c, i, captured);
    await c.close();
    await new Promise((r) => setImmediate(r));
    tap.pipeline.flush();
    await tap.close();
    const started = await startMock({ file, port: 0, speed: 0 });
    if (!started.ok) throw new Error(started.message);
    const mock = started.value;
    const direct: number[] = [];
    const mocked: number[] = [];
    const verifyRun: number[] = [];
    const directRun: number[] = [];
    try {
      for (let r = 0; r < rounds; r++) {
        direct.push(await latency(demo.url, calls, captured));
        mocked.push(await latency(mock.mcpUrl, calls, captured));
        let t = performance.now();
        const v = await verifyCapture({ file, target: new URL(demo.url), only: null, compare: {}, headers: {}, timeoutMs: 60_000 });
        verifyRun.push(performance.now() - t);
        if (!v.ok || v.result.rows.some((row) => row.verdict !== 'same')) throw new Error('verify of the bench capture did not come out all same');
        t = performance.now();
        const d = await client(demo.url);
        for (let i = 0; i < captured; i++) await call(d, i, captured);
        await d.close();
        directRun.push(performance.now() - t);
      }
    } finally {
      await mock.close();
    }
    const matchRate = matcherRate(options.smoke ? 1_000 : 10_000);
    return [
      measured({ bench: BENCH, metric: 'p50 tools/call, SDK client, mock (speed 0)', unit: 'ms', baseline: { name: 'the real server', value: percentile([...direct].sort((a, b) => a - b), 50) } }, mocked),
      measured({ bench: BENCH, metric: 'p50 tools/call, SDK client, the real server', unit: 'ms' }, direct),
      measured({ bench: BENCH, metric: `verify a capture of initialize + ${captured} tools/call`, unit: 'ms', baseline: { name: 'the same calls by the SDK client', value: percentile([...directRun].sort((a, b) => a - b), 50) } }, verifyRun),
      { bench: BENCH, metric: `matcher lookups, strict, ${options.smoke ? '1,000' : '10,000'}-call capture`, value: matchRate.lookups, unit: 'lookups/s', note: `cassette built in ${matchRate.buildMs.toFixed(0)} ms` },
    ];
  } finally {
    await demo.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds a cassette of `n` distinct tools/call and times strict lookups of every one of them. */
function matcherRate(n: number): { lookups: number; buildMs: number } {
  const frames: Frame[] = [];
  for (let i = 0; i < n; i++) {
    const params = { name: `tool${i % 20}`, arguments: { q: `query ${i}`, page: i % 7, filters: { lang: 'en', tags: ['a', 'b', String(i)] } } };
    frames.push({ seq: 2 * i + 1, ts: i, sessionKey: 's', direction: 'c2s', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params }) });
    frames.push({ seq: 2 * i + 2, ts: i, sessionKey: 's', direction: 's2c', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `answer ${i}` }] } }) });
  }
  let t = performance.now();
  const cassette = buildCassette(frames);
  const buildMs = performance.now() - t;
  const matcher = new CassetteMatcher(cassette);
  const cursor = matcher.session();
  t = performance.now();
  for (const c of cassette.calls) if (!cursor.match(c.method, c.params).ok) throw new Error('a captured call did not match itself');
  return { lookups: cassette.calls.length / ((performance.now() - t) / 1000), buildMs };
}
