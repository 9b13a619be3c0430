/**
 * What capture costs in CPU, against the fastest floor a Node proxy reaches. The CPU time per
 * `tools/call` of each proxy process, all of its threads (utime + stime of /proc/<pid>/stat, which
 * sums every thread), over a fixed number of calls from keep-alive clients against the fast
 * upstream: mcpscope with capture on into a capture file (as users run it: the capture's worker
 * thread counts), mcpscope with capture on into `:memory:`, mcpscope with capture off, and the
 * node:http pipe (support/node-pipe.ts). Rounds interleave the paths and rotate which starts.
 *
 * Budget: capture on costs at most 2.0× the pipe's CPU per call.
 *
 * Then where capture's CPU goes: one more mcpscope into a capture file runs under `--cpu-prof`
 * (every thread writes its profile) for the same calls at the most clients, and each stage of
 * capture (support/cpu-stages.ts: redaction, parse, derive, encode, SQL, the hand-off to the
 * engine's worker) gets a row in µs per call, its share of each thread's profile scaled to the CPU
 * /proc charged that thread. Profiling slows the process, so these rows are read beside each
 * other and beside the unprofiled rows of the same run, not as a sum of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPath, pathName, BEFORE, type BenchPath, type PathKind } from './paths.js';
import { skipped, type BenchOptions, type BenchRow } from './report.js';
import { Samples } from './samples.js';
import { spread } from './stats.js';
import { startHelper, type Helper } from './support/processes.js';
import { load } from './support/load.js';
import { cpuMs, threadCpuMs } from './support/proc-cpu.js';
import { STAGES, monotonicUs, readStages, type StageReading } from './support/cpu-stages.js';

const BENCH = 'capture-cpu';
const PIPE = pathName('node pipe');
const BUDGET = 2.0;

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 6;
  const concurrencies = options.smoke ? [1] : [1, 10];
  const calls = options.smoke ? 300 : 3000;
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-cpu-'));
  const upstream = await startHelper('./fast-upstream.ts');
  const live: [string, BenchPath][] = [];
  const start = async (name: string, kind: PathKind, env: Record<string, string> = {}, tree?: string) => {
    const path = await startPath(kind, upstream, env, tree);
    if (!('skipped' in path)) live.push([name, path]);
  };
  const samples = new Samples();
  let stages: StageReading | undefined;
  let closing: Promise<unknown> | undefined;
  const closePaths = () => (closing ??= Promise.all(live.map(([, p]) => p.close())));
  try {
    for (const tree of BEFORE ? [undefined, BEFORE] : [undefined]) {
      const prefix = tree ? 'before: ' : '';
      await start(`${prefix}mcpscope, capture file`, 'mcpscope', { DB: join(dir, `${prefix ? 'before' : 'after'}.db`) }, tree);
      await start(`${prefix}mcpscope, :memory:`, 'mcpscope', {}, tree);
      await start(`${prefix}${pathName('capture off')}`, 'capture off', {}, tree);
    }
    await start(PIPE, 'node pipe');
    if (live.some(([, p]) => p.pid === undefined || cpuMs(p.pid) === undefined)) return [skipped(BENCH, 'CPU per call', 'no /proc/<pid>/stat on this system')];
    for (let round = 0; round < rounds; round++) {
      const order = live.slice(round % live.length).concat(live.slice(0, round % live.length));
      for (const [name, path] of order) {
        const url = `${path.origin}/mcp`;
        await load(url, 1, 100);
        for (const clients of concurrencies) {
          const before = cpuMs(path.pid!)!;
          await load(url, clients, Math.floor(calls / clients));
          samples.add(`cpu ${clients}`, name, ((cpuMs(path.pid!)! - before) * 1000) / calls);
        }
      }
    }
    // The measured paths stop first: the profiled process runs alone beside the upstream.
    await closePaths();
    stages = await profiledRun(upstream, dir, concurrencies.at(-1)!, calls);
  } finally {
    await closePaths();
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const rows: BenchRow[] = [];
  for (const clients of concurrencies) {
    const key = `cpu ${clients}`;
    const pipe = spread(samples.get(key, PIPE)).median;
    for (const [name] of live) {
      const s = spread(samples.get(key, name));
      const row: BenchRow = { bench: BENCH, metric: `CPU per tools/call (all threads), ${clients} client${clients === 1 ? '' : 's'}, ${name}`, value: s.median, spread: s, unit: 'µs' };
      if (name !== PIPE) row.baseline = { name: PIPE, value: pipe };
      if (name.endsWith('mcpscope, capture file') || name.endsWith('mcpscope, :memory:')) Object.assign(row, { budget: `≤ ${BUDGET.toFixed(1)}× pipe`, met: s.median <= pipe * BUDGET });
      rows.push(row);
    }
  }
  if (stages) rows.push(...stageRows(stages, concurrencies.at(-1)!));
  return rows;
}

/** One capture-file mcpscope under `--cpu-prof`, `calls` calls from `clients` clients: capture's CPU by stage. */
async function profiledRun(upstream: Helper, dir: string, clients: number, calls: number): Promise<StageReading> {
  const profiles = join(dir, 'profiles');
  const tap = await startHelper('./tap-process.ts', { UPSTREAM: upstream.origin, DB: join(dir, 'profiled.db') }, ['--cpu-prof', `--cpu-prof-dir=${profiles}`]);
  const url = `${tap.origin}/mcp`;
  try {
    await load(url, clients, 100);
    const from = monotonicUs();
    const before = threadCpuMs(tap.pid);
    await load(url, clients, Math.floor(calls / clients));
    const after = threadCpuMs(tap.pid);
    const to = monotonicUs();
    // The profiles are written as each thread ends.
    await tap.stop();
    return readStages(profiles, { from, to }, { pid: tap.pid, before, after }, calls);
  } finally {
    await tap.stop();
  }
}

function stageRows(stages: StageReading, clients: number): BenchRow[] {
  const metric = (what: string) => `CPU per tools/call, ${clients} client${clients === 1 ? '' : 's'}, capture file under --cpu-prof: ${what}`;
  const rows: BenchRow[] = [
    { bench: BENCH, metric: metric("the tap's thread"), value: stages.tapThread, unit: 'µs' },
    { bench: BENCH, metric: metric("the engine's worker"), value: stages.engineThread, unit: 'µs' },
    { bench: BENCH, metric: metric("other threads (V8's GC helpers, libuv, the profiler's own sampling)"), value: stages.otherThreads, unit: 'µs' },
  ];
  for (const stage of STAGES) rows.push({ bench: BENCH, metric: metric(`stage: ${stage}`), value: stages.perCall.get(stage)!, unit: 'µs' });
  return rows;
}
