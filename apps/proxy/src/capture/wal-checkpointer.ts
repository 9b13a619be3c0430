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
 * The worker is plain JavaScript evaluated from a string: it then runs the same way from source
 * (tsx, vitest) and from the build, with better-sqlite3 resolved by the main thread.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages (4 KiB) the writer lets the WAL reach before it checkpoints by itself. */
export const WRITER_AUTOCHECKPOINT_PAGES = 16_384;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, { timeout: 1000 });
const checkpoint = () => {
  // Busy (the writer holds a lock we need) or any other failure: the next round tries again,
  // and the writer's own threshold is the backstop.
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

const sqlitePath = createRequire(import.meta.url).resolve('better-sqlite3');

export class WalCheckpointer {
  private readonly worker: Worker;

  constructor(file: string, intervalMs = 100) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sqlite: sqlitePath, file, intervalMs } });
    // A failed checkpointer costs only the writer doing its own checkpoints: never crash for it.
    this.worker.on('error', () => {});
    // It must not keep a process alive that is otherwise done.
    this.worker.unref();
  }

  /** Asks the worker to close its connection and end (it finishes any checkpoint under way). */
  stop(): void {
    this.worker.postMessage('stop');
  }
}
