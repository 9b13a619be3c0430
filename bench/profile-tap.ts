/**
 * Where the tap's CPU goes: runs the tap (from its build, as the benchmarks do) under
 * `node --cpu-prof` in front of the fast upstream, loads it with wrk, and prints the self time of
 * the hottest functions and of each area (capture, redaction, deriving, SQLite, undici, node:http,
 * the tap's own forwarding, GC). Not a benchmark with budgets: the profile that justifies a change.
 *
 *   node --import tsx bench/profile-tap.ts [--capture=off] [--door=off] [--clients=50] [--seconds=5] [--db=FILE]
 *   node --import tsx bench/profile-tap.ts --large=50   # one 50 MB result beside 10 small clients
 *
 * The .cpuprofile stays in the printed directory (open it in Chrome DevTools for the call tree).
 *
 * Each thread's CPU is also read from /proc (what the kernel charged it over the load), beside the
 * machine's: a profile's "busy" counts a sample whenever the thread was inside JavaScript or a
 * call, also while the kernel had it waiting for a core, so on a saturated box it overstates what
 * a thread costs. /proc is the number to add up; the profile says where inside a thread it went.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHelper } from './support/processes.js';
import { wrkAvailable, wrkLoad } from './support/wrk.js';
import { loadBeside } from './support/load.js';
import { percentile } from './stats.js';
import { request } from 'undici';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const capture = arg('capture', 'on');
const door = arg('door', 'on');
const clients = Number(arg('clients', '50'));
const seconds = Number(arg('seconds', '5'));
const largeMb = Number(arg('large', '0'));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the clock V8 stamps profiles with (CLOCK_MONOTONIC), in µs. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** The area a function belongs to, from its file. */
function areaOf(url: string, fn: string): string {
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(idle)' || fn === '(program)') return fn;
  if (url.includes('better-sqlite3') || url.includes('node:sqlite') || url.includes('/capture/sqlite')) return 'SQLite (driver)';
  const m = /apps\/proxy\/dist\/([^/]+)\//.exec(url);
  if (m) return `proxy: ${m[1]}`;
  if (url.includes('packages/protocol')) return 'protocol (classify, derive)';
  if (url.includes('undici')) return 'undici';
  if (url.includes('@hono') || url.includes('/hono/')) return 'hono';
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:').split('/').slice(0, 2).join('/');
  if (url === '') return `native: ${fn || '(anonymous)'}`;
  return 'other JS';
}

/** Self time per function and per area, counting only samples inside [from, to] (start-up is not the tap's work). */
/** Self time per profile node, counting only samples inside [from, to]. */
function selfTimes(profile: Profile, from: number, to: number): Map<number, number> {
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= from && at <= to) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  return selfUs;
}

/** Busy (not idle) µs of a profile inside [from, to]: for the tap's other threads (the tick writer). */
function busyUs(file: string, from: number, to: number): number {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let busy = 0;
  for (const [id, us] of selfTimes(profile, from, to)) if (byId.get(id)!.callFrame.functionName !== '(idle)') busy += us;
  return busy;
}

function summarise(file: string, from: number, to: number, requests: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = selfTimes(profile, from, to);
  const byFn = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busy += us;
    const short = url.replace(/^.*\/(apps|packages|node_modules)\//, '$1/');
    const key = `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    const area = areaOf(url, functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  console.log(`\nbusy (not idle) CPU: ${(busy / 1e6).toFixed(2)} s${requests > 0 ? `, ${(busy / requests).toFixed(0)} µs per request` : ''}`);
  console.log('\nby area (self time):');
  for (const [area, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`  ${pct(us)}  ${area}`);
  console.log('\nhottest functions (self time):');
  for (const [fn, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(us)}  ${fn}`);
}

/** CPU the kernel has charged each thread of `pid` (ms, by tid), and the machine's busy and total jiffies. */
function cpuNow(pid: number): { threads: Map<string, number>; busy: number; all: number } {
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(tid, (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS));
    } catch {
      // A thread that ended meanwhile.
    }
  }
  const jiffies = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user, nice, system, irq, softirq, steal are busy; idle and iowait are not.
  const busy = jiffies[0]! + jiffies[1]! + jiffies[2]! + jiffies[5]! + jiffies[6]! + jiffies[7]!;
  return { threads, busy, all: jiffies.reduce((a, b) => a + b, 0) };
}

/** USER_HZ: Linux reports thread CPU in hundredths of a second. */
const CLOCK_TICKS = 100;

function printThreadCpu(before: ReturnType<typeof cpuNow>, after: ReturnType<typeof cpuNow>, requests: number): void {
  const rows = [...after.threads].map(([tid, ms]) => [tid, ms - (before.threads.get(tid) ?? 0)] as const).filter(([, ms]) => ms > 0);
  console.log('\nCPU by thread (/proc; the largest is the tap\'s, then the tick writer\'s; the small ones are V8\'s and libuv\'s helpers):');
  for (const [tid, ms] of rows.sort((a, b) => b[1] - a[1])) console.log(`  thread ${tid.padEnd(8)} ${ms.toFixed(0).padStart(6)} ms  ${((ms * 1000) / requests).toFixed(1).padStart(6)} µs per request`);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`  the tap, all threads: ${((total * 1000) / requests).toFixed(1)} µs per request; the machine was ${((100 * (after.busy - before.busy)) / (after.all - before.all)).toFixed(0)} % busy (all cores)`);
}

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-profile-'));
const upstream = await startHelper('./fast-upstream.ts');
const script = fileURLToPath(new URL('./support/tap-process.ts', import.meta.url));
const env: Record<string, string> = { ...process.env, UPSTREAM: upstream.origin, ...(capture === 'off' ? { CAPTURE: 'off' } : {}), ...(door === 'off' ? { DOOR: 'off' } : {}) } as Record<string, string>;
// A capture file by default, as users run it (`--db=:memory:` for an in-memory store).
const db = arg('db', join(dir, 'capture.db'));
if (db) env.DB = db;
// stderr is not inherited: an orphaned tap would hold the caller's pipe open.
const tap = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'ignore'] });
process.once('exit', () => tap.kill('SIGKILL'));
const origin = await new Promise<string>((resolve, reject) => {
  let out = '';
  tap.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    const m = /READY (\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  tap.once('exit', (code) => reject(new Error(`tap exited with ${code}: ${out}`)));
});
const url = `${origin}/mcp`;
let from: number;
let requests = 0;
if (largeMb > 0) {
  from = monotonicUs();
  const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'export_report', arguments: {} } });
  const run = await loadBeside(url, 10, async () => {
    const res = await request(`${url}?bytes=${largeMb * 1024 * 1024}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for await (const _ of res.body) void _;
    await new Promise((r) => setTimeout(r, 1000));
  });
  console.log(`small calls beside a ${largeMb} MB result: p50 ${percentile(run.latencies, 50).toFixed(2)} ms, p99 ${percentile(run.latencies, 99).toFixed(2)} ms, max ${run.latencies.at(-1)!.toFixed(1)} ms`);
} else {
  const wrk = wrkAvailable();
  if (!wrk.ok) throw new Error(wrk.reason);
  await wrkLoad(url, clients, 1); // warm-up
  from = monotonicUs();
  const before = cpuNow(tap.pid!);
  const run = await wrkLoad(url, clients, seconds);
  const after = cpuNow(tap.pid!);
  requests = run.rps * seconds;
  console.log(`capture ${capture}, door ${door}, ${clients} clients (wrk, ${seconds} s): ${run.rps.toFixed(0)} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms`);
  printThreadCpu(before, after, requests);
}
const to = monotonicUs();
await new Promise<void>((resolve) => {
  tap.once('exit', () => resolve());
  tap.kill('SIGTERM');
});
await upstream.stop();
// One profile per thread (module loader hooks run in one of their own): the main thread's is the largest.
const [file, ...others] = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .sort((a, b) => statSync(b).size - statSync(a).size);
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
console.log(`profile: ${file}`);
// The other threads (the tick writer, the checkpointer, the large-frame writer) run beside it.
for (const other of others) {
  const us = busyUs(other, from, to);
  if (us > 0) console.log(`another thread (${other.split('/').pop()}): ${(us / 1e6).toFixed(2)} s busy, ${requests > 0 ? (us / requests).toFixed(0) : '?'} µs per request`);
}
summarise(file, from, to, requests);
