// The capture engine on its worker (worker-engine.ts): a capture file's ticks are derived and
// written on a worker thread. What a user relies on: the file holds exactly what
// the store's own connection would have written and derived, nothing is told to listeners before
// it is committed, replays are marked whichever thread writes them, a restart continues from the
// thread's snapshot, and a write that has to wait (another connection holds the file's write lock)
// waits on that thread, losing nothing, while the tap's thread goes on.
import { existsSync, mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureStatus, FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline, WRITE_LIMIT } from '../src/capture/capture-pipeline.js';
import { ENGINE_RESTART_LIMIT } from '../src/capture/engine-supervisor.js';
import { openSqlite } from '../src/capture/sqlite.js';
import { warmDeriver } from '../src/capture/capture-engine.js';
import { snapshotDerived, tempDbFile, traffic } from './store-helpers.js';

const open: { pipeline: CapturePipeline; store: CaptureStore }[] = [];

type Engine = 'worker' | 'in-process';

function capture(file: string, engine: Engine): { pipeline: CapturePipeline; store: CaptureStore } {
  const store = new CaptureStore(file);
  const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine });
  open.push({ pipeline, store });
  return { pipeline, store };
}

afterEach(() => {
  for (const { pipeline, store } of open.splice(0)) {
    pipeline.close();
    store.close();
  }
});

/** Until the engine's worker is up (ticks wait for it); a worker starts in seconds on two busy cores. */
async function threadReady(pipeline: CapturePipeline): Promise<void> {
  for (let i = 0; i < 3000 && !pipeline.engineOnWorker; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(pipeline.engineOnWorker).toBe(true);
}

/** Ends the engine's worker thread as a crash would (the pipeline hears it as the thread's exit). */
async function killEngineWorker(pipeline: CapturePipeline): Promise<void> {
  const engine = (pipeline as unknown as { engine: { thread: { worker: { terminate(): Promise<number> } } } }).engine;
  await engine.thread.worker.terminate();
}

/** Until the next tick has handed a write to the thread (`flush()` would wait for it to land). */
async function writeUnderWay(pipeline: CapturePipeline): Promise<void> {
  const writing = () => (pipeline as unknown as { writing: boolean }).writing;
  for (let i = 0; i < 400 && !writing(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(writing()).toBe(true);
}

/** Every frame row, in seq order. */
function frameRows(file: string): unknown[] {
  const db = openSqlite(file, { readonly: true });
  try {
    return db.prepare('SELECT seq, ts, session_key, direction, transport, kind, raw, http, bytes, parts FROM frames ORDER BY seq').all();
  } finally {
    db.close();
  }
}

/** Records `frames` a few at a time, each group its own write, as live traffic arrives. */
async function play(pipeline: CapturePipeline, frames: readonly FrameInput[], group: number): Promise<void> {
  for (let i = 0; i < frames.length; i += group) {
    for (const f of frames.slice(i, i + group)) pipeline.record(f);
    await pipeline.whenWritten();
  }
}

describe('the capture engine’s worker', () => {
  it('stores the same frames and derived rows as the store’s own connection, write by write', async () => {
    const frames = traffic();
    const inline = capture(tempDbFile(), 'in-process');
    const threaded = capture(tempDbFile(), 'worker');
    // The first write starts the thread; the rest go there once it has its connection.
    await play(threaded.pipeline, frames.slice(0, 1), 1);
    await threadReady(threaded.pipeline);
    const batches: number[] = [];
    threaded.pipeline.onBatch((batch) => {
      // A listener hears of a write only after it is committed: a second connection sees it.
      const last = batch.frames.at(-1)!.seq;
      const db = openSqlite(threaded.store.file, { readonly: true });
      batches.push((db.prepare('SELECT COUNT(*) AS n FROM frames WHERE seq <= ?').get(last) as { n: number }).n - last);
      db.close();
    });
    await play(threaded.pipeline, frames.slice(1), 3);
    await play(inline.pipeline, frames, 3);
    expect(threaded.pipeline.engineOnWorker).toBe(true);
    expect(threaded.pipeline.engineOnWorker).toBe(true);
    expect(inline.pipeline.engineOnWorker).toBe(false);
    expect(inline.pipeline.engineOnWorker).toBe(false);
    expect(batches.length).toBeGreaterThan(20);
    expect(batches.every((missing) => missing === 0)).toBe(true);
    for (const c of open) c.pipeline.close();
    expect(frameRows(threaded.store.file)).toEqual(frameRows(inline.store.file));
    expect(snapshotDerived(threaded.store.file)).toEqual(snapshotDerived(inline.store.file));
    expect(snapshotDerived(threaded.store.file).exchanges!.length).toBeGreaterThan(30);
  });

  it('waits out another connection’s write lock on its own thread, and stores every frame once it is released', async () => {
    const file = tempDbFile();
    const { pipeline, store } = capture(file, 'worker');
    const frames = traffic();
    await play(pipeline, frames.slice(0, 1), 1);
    await threadReady(pipeline);
    // Longer than the store's own connection waits for a lock (1 s): written here, these frames
    // would be refused as busy and counted as not recorded.
    const other = openSqlite(file);
    other.exec('BEGIN IMMEDIATE');
    // The longest the event loop stood still while the lock was held (a blocked thread: the whole wait).
    let last = performance.now();
    let longestStill = 0;
    const clock = setInterval(() => {
      const now = performance.now();
      longestStill = Math.max(longestStill, now - last);
      last = now;
    }, 10);
    const written = play(pipeline, frames.slice(1), 5);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stillWhileLocked = longestStill;
    const storedWhileLocked = store.head();
    other.exec('COMMIT');
    other.close();
    await written;
    clearInterval(clock);
    expect(stillWhileLocked).toBeLessThan(500);
    expect(storedWhileLocked).toBe(1);
    expect(store.head()).toBe(frames.length);
    expect(pipeline.health.status().notRecorded).toEqual({ frames: 0, requests: 0 });
  });

  it('a thread that dies mid-capture is replaced by a new worker: its write and the rest are written there, each frame once', async () => {
    const frames = traffic();
    const inline = capture(tempDbFile(), 'in-process');
    const threaded = capture(tempDbFile(), 'worker');
    await play(threaded.pipeline, frames.slice(0, 1), 1);
    await threadReady(threaded.pipeline);
    await play(threaded.pipeline, frames.slice(1, 20), 3);
    const first = threaded.pipeline.engineThread;
    expect(first).toBeDefined();
    expect(first).not.toBe(threadId);
    // A thread can die (out of memory, a native crash); here it is ended as soon as a write is
    // under way. It may die before, during or after that write's commit: none may lose a frame.
    for (const f of frames.slice(20, 23)) threaded.pipeline.record(f);
    const writing = () => (threaded.pipeline as unknown as { writing: boolean }).writing;
    for (let i = 0; i < 2000 && !writing() && threaded.store.head() < 23; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    await killEngineWorker(threaded.pipeline);
    await threaded.pipeline.whenWritten();
    await play(threaded.pipeline, frames.slice(23), 3);
    await play(inline.pipeline, frames, 3);
    // The writes after the death ran on another worker thread, not on the tap's.
    const second = threaded.pipeline.engineThread;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(second).not.toBe(threadId);
    expect(threaded.pipeline.health.status()).toMatchObject({ notRecorded: { frames: 0, requests: 0 }, engineWorker: { restarts: 1 } });
    expect(threaded.pipeline.health.status().engineWorker?.inProcessSince).toBeUndefined();
    for (const c of open) c.pipeline.close();
    expect(frameRows(threaded.store.file)).toEqual(frameRows(inline.store.file));
    expect(snapshotDerived(threaded.store.file)).toEqual(snapshotDerived(inline.store.file));
  });

  it('a worker that keeps dying soon after its start is given up: capture goes on in process, says so, and stores each frame once', async () => {
    const frames = traffic();
    const inline = capture(tempDbFile(), 'in-process');
    const threaded = capture(tempDbFile(), 'worker');
    await play(threaded.pipeline, frames.slice(0, 1), 1);
    await threadReady(threaded.pipeline);
    let next = 1;
    const threads = new Set<number>();
    for (let death = 1; death <= ENGINE_RESTART_LIMIT; death++) {
      threads.add(threaded.pipeline.engineThread!);
      // A write under way at each death, and frames recorded while the next worker starts.
      for (const f of frames.slice(next, next + 3)) threaded.pipeline.record(f);
      next += 3;
      await killEngineWorker(threaded.pipeline);
      for (const f of frames.slice(next, next + 3)) threaded.pipeline.record(f);
      next += 3;
      await threaded.pipeline.whenWritten();
      if (death < ENGINE_RESTART_LIMIT) await threadReady(threaded.pipeline);
    }
    expect(threads.size).toBe(ENGINE_RESTART_LIMIT);
    await play(threaded.pipeline, frames.slice(next), 3);
    await play(inline.pipeline, frames, 3);
    expect(threaded.pipeline.engineOnWorker).toBe(false);
    const status = threaded.pipeline.health.status();
    expect(status).toMatchObject({ state: 'recording', notRecorded: { frames: 0, requests: 0 }, engineWorker: { restarts: ENGINE_RESTART_LIMIT - 1 } });
    expect(status.engineWorker?.inProcessSince).toBeGreaterThan(0);
    for (const c of open) c.pipeline.close();
    expect(frameRows(threaded.store.file)).toEqual(frameRows(inline.store.file));
    expect(snapshotDerived(threaded.store.file)).toEqual(snapshotDerived(inline.store.file));
  });

  it('a write that lags queues at most QUEUE_LIMITS behind it: the rest is forwarded, not stored, and counted', async () => {
    const file = tempDbFile();
    const store = new CaptureStore(file);
    const pipeline = new CapturePipeline(store, {}, undefined, { frames: 50, chars: Number.MAX_SAFE_INTEGER }, { engine: 'worker' });
    open.push({ pipeline, store });
    const frames = traffic();
    await play(pipeline, frames.slice(0, 1), 1);
    await threadReady(pipeline);
    // Another connection holds the file's write lock: the thread's next write waits on it.
    const other = openSqlite(file);
    other.exec('BEGIN IMMEDIATE');
    pipeline.record(frames[1]!);
    // The next tick hands that frame to the thread, where its write waits for the lock.
    await writeUnderWay(pipeline);
    const seqs = frames.slice(2, 82).map((f) => pipeline.record(f));
    expect(seqs.filter((seq) => seq > 0)).toHaveLength(50);
    expect(seqs.slice(50).every((seq) => seq === -1)).toBe(true);
    expect(pipeline.health.status()).toMatchObject({ state: 'recording', notRecorded: { frames: 30 }, fellBehind: { frames: 30 } });
    other.exec('COMMIT');
    other.close();
    await pipeline.whenWritten();
    expect(store.head()).toBe(52);
  });

  it('flush() returns with everything queued stored, past WRITE_LIMIT and through the thread', async () => {
    for (const engine of ['worker', 'in-process'] as const) {
      const { pipeline, store } = capture(tempDbFile(), engine);
      const frames = traffic();
      await play(pipeline, frames.slice(0, 1), 1);
      if (engine === 'worker') await threadReady(pipeline);
      const batches: number[] = [];
      pipeline.onBatch((batch) => batches.push(batch.frames.length));
      let recorded = 1;
      for (let round = 0; recorded <= WRITE_LIMIT * 3; round++) for (const f of frames) recorded += pipeline.record({ ...f, sessionKey: `${f.sessionKey}-${round}` }) > 0 ? 1 : 0;
      pipeline.flush();
      expect(store.head()).toBe(recorded);
      // In batches a live dashboard takes whole (see WRITE_LIMIT).
      expect(Math.max(...batches)).toBeLessThanOrEqual(WRITE_LIMIT);
    }
  });

  it('close() waits for the write on the thread: the file is whole when it returns', async () => {
    const file = tempDbFile();
    const { pipeline, store } = capture(file, 'worker');
    const frames = traffic();
    await play(pipeline, frames.slice(0, 1), 1);
    await threadReady(pipeline);
    for (const f of frames.slice(1)) pipeline.record(f);
    pipeline.flush();
    open.length = 0;
    pipeline.close();
    store.close();
    expect(frameRows(file)).toHaveLength(frames.length);
  });

  it('a replay linked after the thread took deriving over is marked in the summary the thread writes', async () => {
    const { pipeline, store } = capture(tempDbFile(), 'worker');
    const frames = traffic();
    await play(pipeline, frames.slice(0, 4), 1);
    await threadReady(pipeline);
    await play(pipeline, frames.slice(4, 8), 2);
    expect(pipeline.engineOnWorker).toBe(true);
    // As replay does: the request's seq first, then the link, then the tick that writes it.
    const call = (id: number) => ({ ...frames[0]!, direction: 'c2s' as const, raw: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { budget: 5 } } }) });
    const original = pipeline.record(call(900));
    await pipeline.whenWritten();
    const replay = pipeline.record(call(901));
    store.replayLinks.link(String(replay), String(original), 'session', Date.now());
    await pipeline.whenWritten();
    expect(store.exchange(String(replay))).toMatchObject({ replayOf: String(original) });
    expect(store.exchange(String(original))?.replayOf).toBeUndefined();
  });

  it('close() leaves the thread’s deriver snapshot at the last frame: a restart replays nothing', async () => {
    const file = tempDbFile();
    const { pipeline, store } = capture(file, 'worker');
    const frames = traffic();
    await play(pipeline, frames.slice(0, 1), 1);
    await threadReady(pipeline);
    await play(pipeline, frames.slice(1), 4);
    expect(pipeline.engineOnWorker).toBe(true);
    open.length = 0;
    pipeline.close();
    expect(store.deriverSnapshot()?.seq).toBe(frames.length);
    store.close();
    // The capture continues after a restart exactly as one that never stopped (store-warm-start
    // checks the rows; here, that the snapshot needs no frame replayed).
    const again = new CaptureStore(file);
    try {
      expect(warmDeriver(again)).toMatchObject({ restoredAt: frames.length, replayed: 0 });
    } finally {
      again.close();
    }
  });

  it('a capture closed while its thread is still starting is one settled file: the thread is given up, or closes first', async () => {
    for (const wait of [0, 1, 5, 20, 80]) {
      const file = tempDbFile();
      const store = new CaptureStore(file);
      const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'worker' });
      const frames = traffic();
      await play(pipeline, frames.slice(0, 2), 2);
      // The first write started the thread; close at several points of its start.
      await new Promise((resolve) => setTimeout(resolve, wait));
      pipeline.close();
      store.close();
      expect(existsSync(`${file}-wal`), `closed ${wait} ms after the first write`).toBe(false);
      expect(frameRows(file)).toHaveLength(2);
    }
  });

  it('a disk that fills while the thread derives pauses capture; the refused write goes in as the thread derived it once space is freed', async () => {
    const seen = fullDiskRun();
    expect(seen.derivingOnThread).toBe(true);
    expect(seen.whileFull).toMatchObject({ state: 'paused', reason: 'disk full' });
    expect(seen.lostWhilePaused.frames).toBe(3);
    expect(seen.afterFreed.state).toBe('recording');
    expect(seen.stillOnThread).toBe(true);
    // Every frame but the three recorded while paused (they were given no seq); the refused three
    // linked to their exchanges exactly as a capture that never paused links them (derived once,
    // on the thread).
    const frames = traffic();
    expect(seen.stored).toEqual(frames.slice(3).map((_, i) => i + 1));
    expect(seen.refusedLinks.length).toBeGreaterThanOrEqual(3);
    expect(seen.refusedLinks).toEqual(await linksOfRefusedThree(frames));
  }, 90_000);

  it.each([
    ['while the refused write is retried', 'kill-worker-retrying'],
    ['between two retries of the refused write', 'kill-worker-paused'],
  ] as const)('a thread that dies %s is replaced by a new worker: the write goes in once space is freed, and capture goes on there', async (_when, mode) => {
    const seen = fullDiskRun(mode);
    expect(seen.derivingOnThread).toBe(true);
    expect(seen.whileFull).toMatchObject({ state: 'paused', reason: 'disk full' });
    expect(seen.afterFreed.state).toBe('recording');
    expect(seen.stillOnThread).toBe(true);
    // The same frames as a capture whose thread lived: the refused three included, linked as a
    // capture that never paused links them.
    const frames = traffic();
    expect(seen.stored).toEqual(frames.slice(3).map((_, i) => i + 1));
    expect(seen.refusedLinks).toEqual(await linksOfRefusedThree(frames));
  }, 90_000);
});

interface FullDiskRun {
  derivingOnThread: boolean;
  whileFull: CaptureStatus;
  lostWhilePaused: { frames: number };
  afterFreed: CaptureStatus;
  stillOnThread: boolean;
  stored: number[];
  refusedLinks: { frame_seq: number }[];
}

/** support/thread-full-disk.ts on a real full disk: a 4 MB tmpfs in a private mount namespace, as faults-capture.test.ts does. */
function fullDiskRun(mode?: 'kill-worker-retrying' | 'kill-worker-paused'): FullDiskRun {
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-thread-full-'));
  const script = fileURLToPath(new URL('./support/thread-full-disk.ts', import.meta.url));
  const run = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=4m tmpfs "$0" && exec "$@"', dir, process.execPath, '--conditions=mcpscope-source', '--import', 'tsx', script, dir, ...(mode ? [mode] : [])], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as FullDiskRun;
}

/** The frame links of frames 21 to 23 (the refused write's) in a capture of `frames` that never paused. */
async function linksOfRefusedThree(frames: readonly FrameInput[]): Promise<{ frame_seq: number }[]> {
  const inline = capture(tempDbFile(), 'in-process');
  await play(inline.pipeline, frames, 3);
  inline.pipeline.close();
  return (snapshotDerived(inline.store.file).frame_exchanges as { frame_seq: number }[]).filter((l) => l.frame_seq >= 21 && l.frame_seq <= 23);
}
