/**
 * Large tool results through the tap: a 10 MB and a 50 MB `tools/call` result (one JSON body,
 * streamed by the upstream in 64 KiB chunks), directly and through mcpscope (capture on, into an
 * on-disk store as users run it), the Hono floor and mitmdump (default, and streaming). Per path:
 * the time until the client has the last byte (vs direct), and the proxy process's peak RSS
 * growth over its resting RSS, as a multiple of the payload (VmHWM from /proc, which catches
 * short spikes; read after the proxy has gone quiet, since mcpscope stores a frame after it has
 * forwarded it). mcpscope keeps every byte of the body (the capture is the evidence), so its
 * floor is one copy of the text; a streaming proxy that keeps nothing can stay near zero.
 *
 * Then whether a large result stalls anybody else (issue 18): 10 other clients call a small
 * tools/call in a loop while a 50 MB result goes through the same proxy (fetched by curl, in its
 * own process, so the bench's own event loop does not read 50 MB beside the small calls), from
 * its start until 1 s after its last byte (mcpscope used to store the body then); their p99
 * against their p99 over 1.5 s with no large transfer, same path, same round. Budget: ≤ 2×.
 *
 * And the same for a request body of that size (a tool argument, uploaded by curl): the time until
 * its answer, the proxy's peak RSS growth, and the other clients' p99 while it goes through.
 * mcpscope holds a request body only up to 1 MiB and streams the rest on as it arrives.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startPaths, type PathKind } from './paths.js';
import { measured, skipped, type BenchOptions, type BenchRow } from './report.js';
import { Samples } from './samples.js';
import { loadBeside, newAgent } from './support/load.js';
import { percentile, spread } from './stats.js';
import { peakRssMb, resetPeak, rssMb, settle } from './support/proc-memory.js';
import { startHelper } from './support/processes.js';

const BENCH = 'tap, large results';
const PATHS: PathKind[] = ['direct', 'mcpscope', 'node pipe', 'hono', 'mitmdump', 'mitmdump streaming'];
/** The paths the stall rows run on: the baseline, the tap and the fastest floor. */
const STALL_PATHS = ['direct', 'mcpscope', 'node:http pipe'];
const STALL_CLIENTS = 10;
const STALL_TAIL_MS = 1000;
const QUIET_MS = 1500;
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

/** The large call made by curl in its own process; resolves with ms to the last byte. */
function curlLarge(origin: string, bytes: number): Promise<number> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download} %{time_total}', '-X', 'POST', '-H', 'content-type: application/json', '-H', 'accept: application/json, text/event-stream', '--data', BODY, `${origin}/mcp?bytes=${bytes}`];
  return new Promise((resolve, reject) =>
    execFile('curl', args, (error, stdout) => {
      const [status, size, seconds] = stdout.trim().split(' ').map(Number);
      if (error || status !== 200 || !(size! >= bytes)) return reject(new Error(`curl ${origin}: ${error?.message ?? `status ${status}, ${size} bytes`}`));
      resolve(seconds! * 1000);
    }),
  );
}

/** A `tools/call` whose request body is about `bytes` long (one string argument), written to a file for curl. */
function largeRequestFile(dir: string, bytes: number): string {
  const file = join(dir, `request-${bytes}.json`);
  const text = 'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(Math.ceil(bytes / 57)).slice(0, bytes);
  writeFileSync(file, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'import_report', arguments: { data: text } } }));
  return file;
}

/** A large request body sent by curl in its own process; resolves with ms to the answer's last byte. */
function curlLargeRequest(origin: string, file: string): Promise<number> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-X', 'POST', '-H', 'content-type: application/json', '-H', 'accept: application/json, text/event-stream', '--data-binary', `@${file}`, `${origin}/mcp`];
  return new Promise((resolve, reject) =>
    execFile('curl', args, (error, stdout) => {
      const [status, seconds] = stdout.trim().split(' ').map(Number);
      if (error || status !== 200) return reject(new Error(`curl ${origin}: ${error?.message ?? `status ${status}`}`));
      resolve(seconds! * 1000);
    }),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  // LARGE_ROUNDS: more rounds when a loaded machine makes two too few to read a median from.
  const rounds = options.smoke ? 1 : Number(process.env.LARGE_ROUNDS ?? 2);
  const sizes = options.smoke ? [1] : [10, 50];
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-large-'));
  const upstream = await startHelper('./fast-upstream.ts');
  const paths = await startPaths(PATHS, upstream, { DB: join(dir, 'capture.db') });
  const samples = new Samples();
  let peaksSinceStart = false;
  const requestFiles = new Map(sizes.map((size) => [size, largeRequestFile(dir, size * MB)]));
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
          if (path.pid !== undefined) {
            await settle(path.pid);
            samples.add(`peak ${size}`, name, peakRssMb(path.pid) - resting);
            peaksSinceStart ||= !resetPeak(path.pid);
          }
          // The same size as a request body (a tool argument), which the proxy must read and forward.
          const restingBeforeRequest = path.pid !== undefined ? rssMb(path.pid) : 0;
          samples.add(`request time ${size}`, name, await curlLargeRequest(path.origin, requestFiles.get(size)!));
          if (path.pid === undefined) continue;
          await settle(path.pid);
          samples.add(`request peak ${size}`, name, peakRssMb(path.pid) - restingBeforeRequest);
        }
      }
    }
    // The stall rows: small calls with and without the largest result beside them.
    const stallSize = sizes[sizes.length - 1]!;
    for (let round = 0; round < rounds; round++) {
      for (const [name, path] of paths.live) {
        if (!STALL_PATHS.includes(name.replace(/^before: /, ''))) continue;
        if (path.pid !== undefined) await settle(path.pid);
        const url = `${path.origin}/mcp`;
        const quiet = await loadBeside(url, STALL_CLIENTS, () => sleep(QUIET_MS));
        samples.add('quiet p99', name, percentile(quiet.latencies, 99));
        const during = await loadBeside(url, STALL_CLIENTS, async () => {
          await curlLarge(path.origin, stallSize * MB);
          await sleep(STALL_TAIL_MS);
        });
        samples.add('during p99', name, percentile(during.latencies, 99));
        const duringRequest = await loadBeside(url, STALL_CLIENTS, async () => {
          await curlLargeRequest(path.origin, requestFiles.get(stallSize)!);
          await sleep(STALL_TAIL_MS);
        });
        samples.add('during request p99', name, percentile(duringRequest.latencies, 99));
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
    for (const [name] of paths.live) {
      rows.push(measured({ bench: BENCH, metric: `${size} MB request body: answer after, ${name}`, unit: 'ms', ...samples.versus('direct', name)(`request time ${size}`) }, samples.get(`request time ${size}`, name)));
    }
    for (const [name, path] of paths.live) {
      if (path.pid === undefined) continue;
      const row = measured({ bench: BENCH, metric: `${size} MB request body: proxy peak RSS growth, ${name}`, unit: 'MB', baseline: { name: 'payload', value: size }, ratioAs: 'x' }, samples.get(`request peak ${size}`, name));
      if (size === 50 && (name === 'mcpscope' || name === 'before: mcpscope')) Object.assign(row, { budget: '≤ 2.5× the payload (as for a result)', met: row.value <= 2.5 * size });
      rows.push(note ? { ...row, note } : row);
    }
  }
  const stallSize = sizes[sizes.length - 1]!;
  for (const [name] of paths.live) {
    const during = samples.get('during p99', name);
    if (during.length === 0) continue;
    const quiet = spread(samples.get('quiet p99', name)).median;
    const row = measured({ bench: BENCH, metric: `during a ${stallSize} MB result: small tools/call p99, ${STALL_CLIENTS} other clients, ${name}`, unit: 'ms', baseline: { name: 'no large transfer', value: quiet }, ratioAs: 'x' }, during);
    if (name === 'mcpscope' || name === 'before: mcpscope') Object.assign(row, { budget: '≤ 2× no large transfer', met: row.value <= 2 * quiet });
    rows.push(row);
    const duringRequest = measured({ bench: BENCH, metric: `during a ${stallSize} MB request body: small tools/call p99, ${STALL_CLIENTS} other clients, ${name}`, unit: 'ms', baseline: { name: 'no large transfer', value: quiet }, ratioAs: 'x' }, samples.get('during request p99', name));
    if (name === 'mcpscope' || name === 'before: mcpscope') Object.assign(duringRequest, { budget: '≤ 2× no large transfer (as for a result)', met: duringRequest.value <= 2 * quiet });
    rows.push(duringRequest);
  }
  return rows;
}
