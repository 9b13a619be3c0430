/**
 * `mcpscope load` as a load generator, beside autocannon (npm, the usual Node HTTP load tool) on
 * the same trivial upstream (support/fast-upstream.ts) and the same request: a 2026-07-28
 * `tools/call` (stateless, so no handshake: every call is the same POST with the same headers).
 * The capture is made by the tap from that one request; `mcpscope load` replays it from the
 * built CLI, autocannon from its own CLI, each in its own process, interleaved round by round.
 * Budget (issue): the generator must not be the bottleneck, ≥ 70 % of autocannon's calls/s.
 * `BENCH_BEFORE=<built checkout>` runs that checkout's `mcpscope load` too, in the same rounds.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startMcpscope } from '@mcpscope/proxy/server';
import { BEFORE } from './paths.js';
import { measured, skipped, type BenchOptions, type BenchRow } from './report.js';
import { startHelper } from './support/processes.js';

const run = promisify(execFile);
const BENCH = 'load';
const CLI = fileURLToPath(new URL('../apps/proxy/bin/mcpscope.js', import.meta.url));
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'suggest_gifts', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' } } },
});
/** The headers `mcpscope load` sends with that body (wire-headers.ts), given to autocannon too. */
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'suggest_gifts' };

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const concurrency = options.smoke ? 4 : 50;
  const seconds = options.smoke ? 1 : 5;
  const rounds = options.smoke ? 1 : 3;
  const metric = `calls/s, one request, ${concurrency} connections, ${seconds} s`;
  const budget = '≥ 70 % of autocannon';
  let built = true;
  try {
    readFileSync(new URL('../apps/proxy/dist/commands/cli.js', import.meta.url));
  } catch {
    built = false;
  }
  if (!built) return [skipped(BENCH, metric, 'apps/proxy is not built (pnpm bench builds it)', budget)];
  const upstream = await startHelper('./fast-upstream.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-load-'));
  try {
    const url = `${upstream.origin}/mcp`;
    const capture = join(dir, 'one-call.jsonl');
    writeFileSync(capture, await captureOneCall(url));
    const ours: number[] = [];
    const before: number[] = [];
    const theirs: number[] = [];
    const loadRate = async (cli: string, report: string) => {
      await run(process.execPath, [cli, 'load', capture, '--target', url, '--concurrency', String(concurrency), '--duration', `${seconds}s`, '--report', report, '--max-errors', '100'], { maxBuffer: 16 * 1024 * 1024 });
      const loaded = JSON.parse(readFileSync(report, 'utf8')) as { total: { count: number; outcomes: { ok: number } }; elapsedMs: number };
      if (loaded.total.outcomes.ok !== loaded.total.count) throw new Error(`mcpscope load (${cli}): ${loaded.total.count - loaded.total.outcomes.ok} calls did not end ok`);
      return (loaded.total.count * 1000) / loaded.elapsedMs;
    };
    for (let r = 0; r < rounds; r++) {
      if (BEFORE) before.push(await loadRate(join(BEFORE, 'apps/proxy/bin/mcpscope.js'), join(dir, `before-${r}.json`)));
      ours.push(await loadRate(CLI, join(dir, `load-${r}.json`)));
      const args = [AUTOCANNON, '-j', '-c', String(concurrency), '-d', String(seconds), '-m', 'POST', '-b', BODY, ...Object.entries(HEADERS).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
      const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
      const cannon = JSON.parse(stdout) as { requests: { total: number }; duration: number; non2xx: number; errors: number };
      if (cannon.non2xx + cannon.errors > 0) throw new Error(`autocannon: ${cannon.non2xx} non-2xx answers, ${cannon.errors} errors`);
      theirs.push(cannon.requests.total / cannon.duration);
    }
    const baseline = measured({ bench: BENCH, metric: `autocannon ${metric}`, unit: '/s' }, theirs);
    const row = measured({ bench: BENCH, metric: `mcpscope load ${metric}`, unit: '/s', baseline: { name: 'autocannon', value: baseline.value }, ratioAs: '%', budget }, ours);
    row.met = row.value >= 0.7 * baseline.value;
    console.log(`   mcpscope load ${row.value.toFixed(0)}/s, autocannon ${baseline.value.toFixed(0)}/s (${((row.value / baseline.value) * 100).toFixed(1)} %)`);
    if (!BEFORE) return [baseline, row];
    const old = measured({ bench: BENCH, metric: `before: mcpscope load ${metric}`, unit: '/s', baseline: { name: 'autocannon', value: baseline.value }, ratioAs: '%', budget }, before);
    old.met = old.value >= 0.7 * baseline.value;
    console.log(`   before: mcpscope load ${old.value.toFixed(0)}/s (${((old.value / baseline.value) * 100).toFixed(1)} %)`);
    return [baseline, old, row];
  } finally {
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The one request through the tap, as the JSONL export a user would load. */
async function captureOneCall(url: string): Promise<string> {
  const tap = await startMcpscope({ target: url, db: ':memory:', port: 0, uiPort: 0 });
  try {
    const res = await fetch(tap.mcpUrl, { method: 'POST', headers: HEADERS, body: BODY });
    await res.text();
    tap.pipeline.flush();
    const exported = await fetch(`${tap.dashboardUrl.replace(/\/$/, '')}/api/export?format=jsonl`, { headers: { authorization: `Bearer ${tap.token}` } });
    if (!exported.ok) throw new Error(`export failed: HTTP ${exported.status}`);
    return await exported.text();
  } finally {
    await tap.close();
  }
}
