/**
 * Where capture's CPU goes, stage by stage, from `node --cpu-prof` profiles (one file per thread:
 * the tap's thread and the capture engine's worker each write their own). Every sample inside the
 * measured window is charged to the innermost function on its stack that belongs to a stage, so a
 * builtin (JSON.stringify, a SQLite statement's native `run`) counts for the stage that called it:
 *
 *   redaction  apps/proxy redaction/
 *   parse      reading JSON text: the protocol's JSON-RPC reader and SSE/line framing, the
 *              batch's lazy summaries (capture-pipeline.ts `captureBatch`)
 *   derive     the protocol's deriver (pairing, sessions, conversations, diagnostics), the
 *              capture's deriving and snapshot code (capture-engine.ts)
 *   encode     a tick's write list and its JSON texts (tick-ops.ts `TickOps`)
 *   SQL        running that list (`applyTickOps`), the SQLite drivers
 *   hand-off   crossing to the engine's worker and back (worker-engine.ts, the worker's loop)
 *   capture, other  the rest of capture/ (pipeline bookkeeping, door queue, retention, health)
 *   engine thread, rest  what else the engine's worker spends (GC, message plumbing outside JS)
 *
 * A profile counts a sample whenever the thread is inside a function, also while the kernel has it
 * waiting for a core or blocked in a system call (a checkpoint's fsync): on a loaded machine its
 * times run far above what /proc charges the thread. So each thread's stages are its share of the
 * profile's busy samples times the CPU /proc charged that thread over the same window: the stages
 * of a thread add up to its real CPU, and the profile only says how it splits.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const STAGES = ['redaction', 'parse', 'derive', 'encode', 'SQL', 'hand-off', 'capture, other', 'engine thread, rest'] as const;
export type Stage = (typeof STAGES)[number];

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The functions of capture-engine.ts that derive (per tick, warm-up, the snapshot); the rest of it is the engine's bookkeeping. */
const DERIVING = new Set(['derive', 'rederiveInto', 'warmDeriver', 'restore', 'saveSnapshot', 'cutMessage', 'largeFrameMessage']);

/** The lazy summaries of a batch told to listeners (capture-pipeline.ts `captureBatch`): reading JSON text. */
const BATCH_SUMMARIES = new Set(['get exchanges', 'get sessions', 'get conversations']);

/** The stage one stack frame belongs to, if any. */
function stageOf({ functionName: fn, url }: CallFrame): Stage | undefined {
  if (url.includes('/redaction/')) return 'redaction';
  if (fn === 'applyTickOps' || url.includes('better-sqlite3') || url.startsWith('node:sqlite') || url.includes('/capture/sqlite.')) return 'SQL';
  if (url.includes('/capture/tick-ops.')) return 'encode';
  if (url.includes('/capture/worker-engine.') || url.includes('/capture/engine-worker.') || url.includes('/capture/answering-worker.')) return 'hand-off';
  if (url.includes('/capture/capture-pipeline.') && BATCH_SUMMARIES.has(fn)) return 'parse';
  if ((url.includes('/capture/capture-engine.') && DERIVING.has(fn)) || url.includes('/capture/deriver') || url.includes('/capture/frame-skeleton.')) return 'derive';
  if (url.includes('/capture/')) return 'capture, other';
  if (url.includes('packages/protocol/') || url.includes('@mcpscope/protocol')) {
    if (url.includes('/model/json-rpc.') || url.includes('/wire/')) return 'parse';
    return 'derive';
  }
  return undefined;
}

/** µs per stage in one thread's profile, samples inside [from, to] (CLOCK_MONOTONIC µs) only. */
function stagesOfThread(profile: Profile, from: number, to: number): { stages: Map<Stage, number>; busy: number; engine: boolean } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map<number, Stage | null>();
  const resolve = (id: number): Stage | null => {
    const known = stageOfNode.get(id);
    if (known !== undefined) return known;
    const own = stageOf(byId.get(id)!.callFrame);
    const up = parent.get(id);
    const stage = own ?? (up === undefined ? null : resolve(up));
    stageOfNode.set(id, stage);
    return stage;
  };
  // The engine's worker is the thread whose profile runs its module.
  const engine = profile.nodes.some((n) => n.callFrame.url.includes('/capture/engine-worker.'));
  const stages = new Map<Stage, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const fn = byId.get(id)!.callFrame.functionName;
    if (fn === '(idle)') return;
    busy += delta;
    const stage = resolve(id) ?? (engine ? 'engine thread, rest' : undefined);
    if (stage) stages.set(stage, (stages.get(stage) ?? 0) + delta);
  });
  return { stages, busy, engine };
}

export interface StageReading {
  /** CPU µs per call for each stage, all threads. */
  perCall: Map<Stage, number>;
  /** CPU µs per call (/proc) of the tap's thread, of the engine's worker, and of the process's other threads (V8's GC helpers, libuv). */
  tapThread: number;
  engineThread: number;
  otherThreads: number;
}

/** Each thread's CPU (/proc) at one moment, to subtract from a later one: `threadCpuMs(pid)`. */
export type ThreadCpu = Map<string, number>;

/**
 * Charges the window's samples of every .cpuprofile in `dir` to stages, scaled to the CPU /proc
 * charged each thread between `before` and `after` (`threadCpuMs` of the profiled process).
 * The tap's thread is the process's own id; the engine's worker is taken to be the busiest other
 * thread (V8's helper threads and libuv's each cost a few µs per call: bench/README.md).
 */
export function readStages(dir: string, window: { from: number; to: number }, cpu: { pid: number; before: ThreadCpu; after: ThreadCpu }, calls: number): StageReading {
  const used = [...cpu.after].map(([tid, ms]) => [tid, ms - (cpu.before.get(tid) ?? 0)] as const);
  const tapMs = used.find(([tid]) => tid === String(cpu.pid))?.[1] ?? 0;
  const others = used.filter(([tid]) => tid !== String(cpu.pid)).sort((a, b) => b[1] - a[1]);
  const engineMs = others[0]?.[1] ?? 0;
  const otherMs = others.slice(1).reduce((sum, [, ms]) => sum + ms, 0);
  const perCall = new Map<Stage, number>(STAGES.map((s) => [s, 0]));
  const threads = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => stagesOfThread(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile, window.from, window.to));
  const engine = threads.find((t) => t.engine);
  // The tap's thread: the busiest profile that is not the engine's (module loader hooks run in one of their own).
  const tap = threads.filter((t) => !t.engine).sort((a, b) => b.busy - a.busy)[0];
  for (const [thread, ms] of [[tap, tapMs], [engine, engineMs]] as const) {
    if (!thread || thread.busy === 0) continue;
    for (const [stage, us] of thread.stages) perCall.set(stage, perCall.get(stage)! + ((us / thread.busy) * ms * 1000) / calls);
  }
  const perCallOf = (ms: number) => (ms * 1000) / calls;
  return { perCall, tapThread: perCallOf(tapMs), engineThread: engine ? perCallOf(engineMs) : 0, otherThreads: perCallOf(engine ? otherMs : otherMs + engineMs) };
}

/** Now on the clock V8 stamps profiles with (CLOCK_MONOTONIC), in µs. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);
