/**
 * A second load generator: wrk (C, event loop per thread, from Debian), so the tap rows do not
 * depend on the undici client's own overhead, which on 2 cores competes with the proxy for CPU.
 * wrk runs for a fixed time rather than a fixed number of calls; a Lua `done` hook prints the
 * summary as one JSON line. Missing wrk is installed with apt-get when this runs as root on
 * Debian; otherwise the rows say why they were skipped.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadRun } from './load.js';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } } });

const SCRIPT = `
wrk.method = "POST"
wrk.body = '${BODY}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["User-Agent"] = "mcpscope-bench/1"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;

let scriptFile: string | undefined;
let availability: { ok: true } | { ok: false; reason: string } | undefined;

function found(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits with 1 after printing its version; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Whether wrk can run here, installing it from Debian first when it is missing and we may. */
export function wrkAvailable(): { ok: true } | { ok: false; reason: string } {
  if (availability) return availability;
  if (!found()) {
    if (process.getuid?.() === 0) {
      try {
        console.log('   wrk not found: apt-get install -y wrk');
        execFileSync('apt-get', ['install', '-y', 'wrk'], { stdio: 'ignore', timeout: 180_000 });
      } catch {
        // Reported below, as a skipped row.
      }
    }
    if (!found()) return (availability = { ok: false, reason: 'wrk not found (apt-get install -y wrk)' });
  }
  return (availability = { ok: true });
}

/** `clients` keep-alive connections posting tools/call for `seconds`; rate and p50/p99 in ms. */
export function wrkLoad(url: string, clients: number, seconds: number): Promise<Omit<LoadRun, 'latencies'> & { p50: number; p99: number }> {
  scriptFile ??= join(mkdtempSync(join(tmpdir(), 'mcpscope-wrk-')), 'post.lua');
  writeFileSync(scriptFile, SCRIPT);
  // Two threads at most: the box has two cores, and the proxy and upstream need them too.
  const threads = Math.min(clients, 2);
  // A generous timeout: on a loaded box a slow answer is a latency to report, not a socket error.
  const args = ['-t', String(threads), '-c', String(clients), '-d', `${Math.max(1, Math.round(seconds))}s`, '--timeout', '30s', '-s', scriptFile, url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = /WRK_JSON (\{.*\})/.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk ${args.join(' ')} exited with ${code}: ${out.trim()}`));
      const r = JSON.parse(line) as { requests: number; durationUs: number; p50Us: number; p99Us: number; errors: number; non2xx: number };
      if (r.errors > 0 || r.non2xx > 0) return reject(new Error(`wrk against ${url}: ${r.errors} socket errors, ${r.non2xx} non-2xx answers of ${r.requests}`));
      resolve({ rps: r.requests / (r.durationUs / 1e6), p50: r.p50Us / 1000, p99: r.p99Us / 1000 });
    });
  });
}
