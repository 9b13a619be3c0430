/**
 * Large tool results through the tap: a 10 MB and a 50 MB `tools/call` result (one JSON body,
 * streamed by the upstream in 64 KiB chunks), directly and through mcpscope (capture on, into an
 * on-disk store as users run it), the Hono floor and mitmdump (default, and streaming). Per path:
 * the time until the client has the last byte (vs direct), and the proxy process's peak RSS
 * growth over its resting RSS, as a multiple of the payload (VmHWM from /proc, which catches
 * short spikes; read after the proxy has gone quiet, since mcpscope stores a frame after it has
 * forwarded it). mcpscope keeps every byte of the body (the capture is the evidence), so its
 * floor is one copy of the text; a streaming proxy that keeps nothing can stay near zero.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startPaths, type PathKind } from './paths.js';
import { measured, skipped, type BenchOptions, type BenchRow } from './report.js';
import { Samples } from './samples.js';
import { newAgent } from './support/load.js';
import { peakRssMb, resetPeak, rssMb, settle } from './support/proc-memory.js';
import { startHelper } from './support/processes.js';

const BENCH = 'tap, large results';
const PATHS: PathKind[] = ['direct', 'mcpscope', 'hono', 'mitmdump', 'mitmdump streaming'];
const MB = 1024 * 1024;
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'export_report', arguments: {} } });

/** One large call: ms until the last byte; throws when a byte is missing. */
async function fetchLarge(origin: string, bytes: number): Promise<number> {
  const agent = newAgent(1);
  const t = performance.now();
  const res = await request(`${origin}/mcp?bytes=${bytes}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: BODY, dispatcher: agent });
  let received = 0;
  for await (const chunk of res.body) received += (chunk as Buffer).length;
  const ms = performance.now() - t;
  await agent.close();
  const expected = Number(res.headers['content-length']);
  if (res.statusCode !== 200 || received !== expected || received < bytes) throw new Error(`${origin}: status ${res.statusCode}, ${received} of ${expected} bytes`);
  return ms;
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 2;
  const sizes = options.smoke ? [1] : [10, 50];
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-large-'));
  const upstream = await startHelper('./fast-upstream.ts');
  const paths = await startPaths(PATHS, upstream, { DB: join(dir, 'capture.db') });
  const samples = new Samples();
  let peaksSinceStart = false;
  try {
    // Warm-up: the first large body through a fresh process pays for JIT and heap growth once.
    for (const [, path] of paths.live) await fetchLarge(path.origin, MB);
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of paths.live) {
        for (const size of sizes) {
          if (path.pid !== undefined) {
            await settle(path.pid);
            peaksSinceStart ||= !resetPeak(path.pid);
          }
          const resting = path.pid !== undefined ? rssMb(path.pid) : 0;
          samples.add(`time ${size}`, name, await fetchLarge(path.origin, size * MB));
          if (path.pid === undefined) continue;
          await settle(path.pid);
          samples.add(`peak ${size}`, name, peakRssMb(path.pid) - resting);
        }
      }
    }
  } finally {
    await paths.close();
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const rows: BenchRow[] = paths.all.flatMap(([name, path]) => ('skipped' in path ? [skipped(BENCH, `every row, ${name}`, path.skipped)] : []));
  const note = peaksSinceStart ? 'peak since the proxy started (the kernel refused to reset it)' : undefined;
  for (const size of sizes) {
    for (const [name] of paths.live) {
      rows.push(measured({ bench: BENCH, metric: `${size} MB result: last byte after, ${name}`, unit: 'ms', ...samples.versus('direct', name)(`time ${size}`) }, samples.get(`time ${size}`, name)));
    }
    for (const [name, path] of paths.live) {
      if (path.pid === undefined) continue;
      const row = measured({ bench: BENCH, metric: `${size} MB result: proxy peak RSS growth, ${name}`, unit: 'MB', baseline: { name: 'payload', value: size }, ratioAs: 'x' }, samples.get(`peak ${size}`, name));
      rows.push(note ? { ...row, note } : row);
    }
  }
  return rows;
}
