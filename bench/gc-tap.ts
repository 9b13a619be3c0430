/**
 * What the tap's garbage collector does per call: runs the tap (bench/support/tap-process.ts, from
 * its build) under `--trace-gc-nvp` in front of the fast upstream, loads it with the undici
 * clients the door and tap rows use, and prints per path the CPU per call (/proc), scavenges and
 * mark-compacts, their pause time, and the bytes each scavenge promoted to the old generation.
 * Not a benchmark with budgets: the reading that finds objects kept alive too long. A per-request
 * object the old generation points at survives the next scavenge with everything it reaches, so
 * "promoted per scavenge" jumps when that happens to every request (4 Dec 2026: 2.1 MB instead of
 * 0.5 MB with capture off, from a closure stored on a pretenured object; bench/README.md).
 *
 *   node --import tsx bench/gc-tap.ts [--capture=off] [--door=off] [--clients=10] [--calls=6000] [--rounds=4]
 *
 * `BENCH_BEFORE=<built checkout>` runs that checkout's tap beside this one, rounds alternating.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHelper } from './support/processes.js';
import { load } from './support/load.js';
import { cpuMs } from './support/proc-cpu.js';
import { spread } from './stats.js';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const clients = Number(arg('clients', '10'));
const calls = Number(arg('calls', '6000'));
const rounds = Number(arg('rounds', '4'));
const env = { CAPTURE: arg('capture', 'on'), DOOR: arg('door', 'on') };

interface GcCounts {
  scavenges: number;
  markCompacts: number;
  pauseMs: number;
  promoted: number;
}

interface Tap {
  name: string;
  origin: string;
  pid: number;
  gc: GcCounts;
  stop(): void;
}

/** A tap process whose `--trace-gc-nvp` lines are counted as they arrive. */
function startTap(name: string, tree: string, upstream: string): Promise<Tap> {
  const script = join(tree, 'bench/support/tap-process.ts');
  const child = spawn(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', script], { cwd: join(tree, 'bench'), env: { ...process.env, ...env, UPSTREAM: upstream }, stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  const gc: GcCounts = { scavenges: 0, markCompacts: 0, pauseMs: 0, promoted: 0 };
  return new Promise((resolve, reject) => {
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const ready = /^READY (\S+)/.exec(line);
        if (ready) resolve({ name, origin: ready[1]!, pid: child.pid!, gc, stop: () => child.kill('SIGTERM') });
        const kind = / gc=(\w+) /.exec(line)?.[1];
        if (kind === undefined) continue;
        if (kind === 's') gc.scavenges++;
        else gc.markCompacts++;
        gc.pauseMs += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
        gc.promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

const here = fileURLToPath(new URL('..', import.meta.url));
const upstream = await startHelper('./fast-upstream.ts');
const taps = [await startTap('this checkout', here, upstream.origin)];
if (process.env.BENCH_BEFORE) taps.push(await startTap(`before (${process.env.BENCH_BEFORE})`, process.env.BENCH_BEFORE, upstream.origin));
const samples = new Map<string, { cpu: number[]; scavenges: number[]; markCompacts: number[]; pauseMs: number[]; promotedKb: number[]; promotedPerCall: number[] }>();
try {
  for (const tap of taps) await load(`${tap.origin}/mcp`, clients, 100);
  for (let round = 0; round < rounds; round++) {
    for (const tap of round % 2 ? [...taps].reverse() : taps) {
      const before = { ...tap.gc, cpu: cpuMs(tap.pid)! };
      await load(`${tap.origin}/mcp`, clients, Math.floor(calls / clients));
      await new Promise((r) => setTimeout(r, 200)); // the last trace lines
      const s = tap.gc;
      const scavenges = s.scavenges - before.scavenges;
      const entry = samples.get(tap.name) ?? { cpu: [], scavenges: [], markCompacts: [], pauseMs: [], promotedKb: [], promotedPerCall: [] };
      entry.cpu.push(((cpuMs(tap.pid)! - before.cpu) * 1000) / calls);
      entry.scavenges.push(scavenges);
      entry.markCompacts.push(s.markCompacts - before.markCompacts);
      entry.pauseMs.push(s.pauseMs - before.pauseMs);
      entry.promotedKb.push((s.promoted - before.promoted) / 1024 / Math.max(1, scavenges));
      entry.promotedPerCall.push((s.promoted - before.promoted) / calls);
      samples.set(tap.name, entry);
    }
  }
} finally {
  for (const tap of taps) tap.stop();
  await upstream.stop();
}
const fmt = (xs: number[], digits = 0) => {
  const s = spread(xs);
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
};
console.log(`capture ${env.CAPTURE}, door ${env.DOOR}, ${clients} clients, ${calls} calls × ${rounds} rounds; medians (min–max)`);
for (const [name, s] of samples) {
  console.log(`${name}: CPU ${fmt(s.cpu)} µs/call; ${fmt(s.scavenges)} scavenges, ${fmt(s.markCompacts)} mark-compacts, GC pause ${fmt(s.pauseMs)} ms; promoted ${fmt(s.promotedKb)} KB per scavenge, ${fmt(s.promotedPerCall)} B per call`);
}
