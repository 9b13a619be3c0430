/**
 * The capture's tick writes run on a worker thread, so SQLite never runs on the tap's thread
 * while a capture is busy.
 *
 * Measured before this existed (profile-tap, 50 wrk clients, capture on): the tick's statements
 * (frame inserts, exchange upserts and updates, frame links, session upserts, door records) were
 * about a fifth of the tap's CPU, about 33 µs per call, all of it on the thread that forwards.
 * With the writes skipped outright (an upper bound for moving them) the tap carried 30 % more
 * calls, and the added p50 of one client fell by 0.17 ms. The rest of capture (redaction,
 * deriving, the summaries' JSON) stays on the tap's thread: it needs the deriver's state, and a
 * whole-pipeline worker halved the 50-client rate on 2 cores (large-writer.ts).
 *
 * The store encodes each write as a flat list of statement runs (tick-ops.ts) and posts it; this
 * thread runs it in one transaction on its own connection and answers. One write is in flight at a
 * time (the pipeline waits for the answer before its next write, gathering the frames meanwhile),
 * and the pipeline tells its listeners only after the answer: the dashboard still never sees a
 * frame that is not committed. `settle()` waits (blocking, bounded) for the write under way, for
 * shutdown and imports, which must end with everything stored.
 *
 * A failure keeps its SQLite code (`code`, `errcode`) so the pipeline can tell a full or read-only
 * store from anything else (capture-health.ts). If the thread itself dies, the write under way
 * fails (the pipeline retries it without derived rows, on its own connection) and the store writes
 * on its own connection from then on.
 *
 * The worker (answering-worker.ts) runs the main thread's SQLite driver (sqlite.ts's `workerSqlite`)
 * and tick-ops.ts's `applyTickOps`.
 */
import { WORKER_OPEN_SQLITE, workerSqlite } from './sqlite.js';
import { AnsweringWorker, WORKER_ANSWER } from './answering-worker.js';
import { TICK_SQL, applyTickOps } from './tick-ops.js';
import { WRITER_AUTOCHECKPOINT_PAGES } from './wal-checkpointer.js';

/** How long `settle()` waits for a write under way (a large frame's pieces may hold the file's lock). */
const SETTLE_MS = 30_000;
/** How long the writer's connection waits for another connection's lock (the large-frame writer's, a retention delete). */
const BUSY_TIMEOUT_MS = 30_000;

/** A write's outcome: its failure, as the pipeline classifies it (capture-health.ts `storageProblem`). */
export interface TickWriteFailure extends Error {
  code?: string;
  errcode?: number;
}

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
// tsx and esbuild may name nested functions through this helper inside the function's source.
const __name = (f) => f;
const applyTickOps = (${applyTickOps.toString()});
${WORKER_OPEN_SQLITE}
${WORKER_ANSWER}
const failure = (err) => ({ message: String(err && err.message || err), code: err && err.code, errcode: err && err.errcode });
let db, statements, begin, commit, rollback;
try {
  db = openWorkerSqlite(workerData.sqlite, workerData.file, workerData.busyMs);
  // The settings of the store's own connection (capture-store.ts): per connection in SQLite.
  db.exec('PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = ' + workerData.autocheckpoint);
  statements = workerData.sql.map((sql) => (sql === '' ? undefined : db.prepare(sql)));
  begin = db.prepare('BEGIN');
  commit = db.prepare('COMMIT');
  rollback = db.prepare('ROLLBACK');
  answer({ id: 0, ready: true });
} catch (err) {
  answer({ id: 0, error: failure(err) });
}
port.on('message', (m) => {
  if (m.type === 'write') {
    try {
      begin.run();
      try {
        applyTickOps(statements, m.ops);
        commit.run();
      } catch (err) {
        try { rollback.run(); } catch {}
        throw err;
      }
      answer({ id: m.id });
    } catch (err) {
      answer({ id: m.id, error: failure(err) });
    }
  } else if (m.type === 'stop') {
    try { db && db.close(); } catch {}
    answer({ id: -1 });
    port.close();
  }
});
`;

interface Answer {
  id: number;
  ready?: true;
  error?: { message: string; code?: string; errcode?: number };
}

/** One capture file's tick writer: a worker thread with its own connection. */
export class TickWriter {
  private readonly thread: AnsweringWorker<Answer>;
  private nextId = 0;
  /** The write under way, if any (one at a time). */
  private pending: { id: number; landed: (failure: TickWriteFailure | undefined) => void } | undefined;
  private state: 'starting' | 'ready' | 'gone' = 'starting';

  constructor(file: string) {
    const workerData = { sqlite: workerSqlite(), file, sql: TICK_SQL, busyMs: BUSY_TIMEOUT_MS, autocheckpoint: WRITER_AUTOCHECKPOINT_PAGES };
    this.thread = new AnsweringWorker<Answer>(WORKER_SOURCE, workerData, (answer) => this.answered(answer), (error) => this.fail(new Error(`the tick writer thread stopped: ${error.message}`)));
  }

  /** Whether writes go here: the thread has opened its connection, and is alive. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Runs `ops` in one transaction; `landed` runs once, from a later turn of the event loop or from `settle()`. */
  write(ops: unknown[], landed: (failure: TickWriteFailure | undefined) => void): void {
    if (this.state !== 'ready' || this.pending) throw new Error('tick writer: not ready for a write');
    const id = ++this.nextId;
    this.pending = { id, landed };
    this.thread.post({ type: 'write', id, ops });
  }

  /** Waits (blocking, bounded) for the write under way, if any, and delivers its outcome now. */
  settle(): void {
    this.thread.settle(() => this.pending !== undefined, SETTLE_MS);
  }

  /** Closes the thread's connection (after the write under way) and ends it. */
  stop(): void {
    this.settle();
    this.state = 'gone';
    this.thread.stop();
  }

  private answered(message: Answer): void {
    if (message.id === 0) {
      // The thread could not open its connection: the store keeps writing on its own.
      if (message.ready && this.state === 'starting') this.state = 'ready';
      else if (message.error) this.fail(Object.assign(new Error(message.error.message), message.error));
      return;
    }
    const pending = this.pending;
    if (!pending || pending.id !== message.id) return;
    this.pending = undefined;
    pending.landed(message.error ? (Object.assign(new Error(message.error.message), message.error) as TickWriteFailure) : undefined);
  }

  /** The thread died (or could not open): the write under way fails (the pipeline keeps its frames), and no write comes here again. */
  private fail(error: Error): void {
    if (this.state === 'gone') return;
    this.state = 'gone';
    const pending = this.pending;
    this.pending = undefined;
    this.thread.stop();
    pending?.landed(error);
  }
}
