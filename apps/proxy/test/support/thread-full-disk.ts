/**
 * A capture whose disk fills while the engine's worker derives, run as its own process inside
 * a private mount namespace with a small tmpfs (tick-writer.test.ts starts it with `unshare -rm`),
 * so the disk is really full: SQLite's own SQLITE_FULL on the thread's connection, not a stand-in.
 *
 *   node --conditions=mcpscope-source --import tsx thread-full-disk.ts DIR [kill-worker-retrying | kill-worker-paused]
 *
 * Records the store-helpers traffic into DIR/capture.db: the first frames until the thread has
 * taken deriving over, three more with the disk full (the write of them is refused),
 * three while capture is paused, then the rest once the filler is deleted and capture has resumed.
 * With `kill-worker-retrying`, the engine's worker is ended while the refused write is being
 * retried (a retry is started and the worker terminated at once); with `kill-worker-paused`, between
 * two retries; either before the filler is deleted.
 * Prints one JSON line: what the capture's status said at each step, and what the file holds.
 */
import { statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../../src/capture/capture-store.js';
import { CapturePipeline } from '../../src/capture/capture-pipeline.js';
import { openSqlite } from '../../src/capture/sqlite.js';
import { traffic } from '../store-helpers.js';

const dir = process.argv[2]!;
const killWorker = process.argv[3] as 'kill-worker-retrying' | 'kill-worker-paused' | undefined;
const frames = traffic();
const store = new CaptureStore(join(dir, 'capture.db'));
const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'worker' });
// The thread's answers do not keep a process alive (answering-worker.ts): this does, until the end.
const alive = setInterval(() => {}, 1000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function play(some: readonly FrameInput[]): Promise<void> {
  for (let i = 0; i < some.length; i += 3) {
    for (const f of some.slice(i, i + 3)) pipeline.record(f);
    await pipeline.whenWritten();
  }
}

let next = 0;
while (!pipeline.engineOnWorker && next < 20) {
  await play(frames.slice(next, next + 1));
  next++;
  await sleep(100);
}
await play(frames.slice(next, 20));
const derivingOnThread = pipeline.engineOnWorker;

// An empty WAL before the disk fills: the refused write must grow the WAL file, so it meets the full
// disk whether or not a checkpoint had just rewound the WAL (a rewound WAL reuses its pages).
const file = join(dir, 'capture.db');
for (let i = 0; i < 200 && !walEmptied(file); i++) await sleep(20);

const filler = join(dir, 'filler');
try {
  writeFileSync(filler, Buffer.alloc(64 * 1024 * 1024));
} catch {
  // ENOSPC: the file system is full, which is the point.
}
for (const f of frames.slice(20, 23)) pipeline.record(f);
await pipeline.whenWritten();
const whileFull = pipeline.health.status();
for (const f of frames.slice(23, 26)) pipeline.record(f);
const lostWhilePaused = pipeline.health.status().notRecorded;
if (killWorker) {
  const worker = (pipeline as unknown as { engine: { thread: { worker: { terminate(): Promise<number> } } } }).engine.thread.worker;
  if (killWorker === 'kill-worker-retrying') (pipeline as unknown as { retry: { now(): void } }).retry.now();
  await worker.terminate();
  console.error(`the worker was ended (${killWorker})`);
}
unlinkSync(filler);
for (let i = 0; i < 200 && pipeline.health.status().state === 'paused'; i++) await sleep(50);
const afterFreed = pipeline.health.status();
console.error(`after the filler was deleted: ${afterFreed.state}; the rest of the traffic follows`);
await play(frames.slice(26));
const stillOnThread = pipeline.engineOnWorker;
pipeline.close();
store.close();
clearInterval(alive);
// What the file holds (the tmpfs goes with this process): every frame's seq, and the links the
// refused write made for its three frames.
const db = openSqlite(file, { readonly: true });
const stored = (db.prepare('SELECT seq FROM frames ORDER BY seq').all() as { seq: number }[]).map((r) => r.seq);
const refusedLinks = db.prepare('SELECT frame_seq, exchange_id FROM frame_exchanges WHERE frame_seq BETWEEN 21 AND 23 ORDER BY frame_seq, exchange_id').all();
db.close();
console.log(JSON.stringify({ derivingOnThread, whileFull, lostWhilePaused, afterFreed, stillOnThread, stored, refusedLinks }));

/** Checkpoints the whole WAL into the file and truncates it to nothing; false while a writer holds it. */
function walEmptied(path: string): boolean {
  const db = openSqlite(path);
  try {
    const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return row?.busy === 0 && statSync(`${path}-wal`, { throwIfNoEntry: false })?.size === 0;
  } finally {
    db.close();
  }
}
