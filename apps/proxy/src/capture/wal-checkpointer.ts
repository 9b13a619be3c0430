/**
 * Checkpoints a capture file's WAL from a worker thread, so the tap's thread never does.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses its threshold, on the
 * writer's thread: it copies WAL pages into the main file and fsyncs, and for that long the event
 * loop (the tap's forwarding included) stands still; measured at about a tenth of ingest time.
 * Here a second connection on a worker thread runs PASSIVE checkpoints, which never block the
 * writer, every `intervalMs`. The writer keeps a high automatic threshold as a safety net, so the
 * WAL stays bounded even if the worker falls behind or dies.
 *
 * Stopping waits (bounded) until the worker's connection is closed, so the store's own connection
 * is the last one and its close checkpoints and removes the WAL before `close()` returns, as it did
 * without a worker: a reader that opens the file right after finds it settled.
 *
 * The worker is plain JavaScript evaluated from a string: it then runs the same way from source
 * (tsx, vitest), the build and the bundle, with the main thread's SQLite driver (sqlite.ts).
 */
import { Worker } from 'node:worker_threads';
import { WORKER_OPEN_SQLITE, workerSqlite } from './sqlite.js';

/** Pages (4 KiB) the writer lets the WAL reach before it checkpoints by itself. */
export const WRITER_AUTOCHECKPOINT_PAGES = 16_384;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${WORKER_OPEN_SQLITE}
const db = openWorkerSqlite(workerData.sqlite, workerData.file, 1000);
const checkpoint = () => {
  // Busy (the writer holds a lock we need) or any other failure: the next round tries again,
  // and the writer's own threshold is the backstop.
  try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.close(); } catch {}
  const closed = new Int32Array(workerData.closed);
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
  parentPort.close();
});
`;

/** How long `stop()` waits for the worker's connection to close (a checkpoint under way finishes first). */
const STOP_WAIT_MS = 5000;

export class WalCheckpointer {
  private readonly worker: Worker;
  /** Set to 1 by the worker once its connection is closed. */
  private readonly closed = new Int32Array(new SharedArrayBuffer(4));
  private alive = true;

  constructor(file: string, intervalMs = 100) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sqlite: workerSqlite(), file, intervalMs, closed: this.closed.buffer } });
    // A failed checkpointer costs only the writer doing its own checkpoints: never crash for it.
    this.worker.on('error', () => (this.alive = false));
    this.worker.on('exit', () => (this.alive = false));
    // It must not keep a process alive that is otherwise done.
    this.worker.unref();
  }

  /** Closes the worker's connection (after any checkpoint under way) and waits for that, bounded. */
  stop(): void {
    if (!this.alive) return;
    this.alive = false;
    this.worker.postMessage('stop');
    // Blocking on purpose: the store's close() is synchronous and must end with the file settled.
    Atomics.wait(this.closed, 0, 0, STOP_WAIT_MS);
  }
}
