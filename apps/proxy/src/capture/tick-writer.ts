/**
 * The capture's tick writes run on a worker thread, so SQLite never runs on the tap's thread
 * while a capture is busy.
 *
 * Measured before this existed (profile-tap, 50 wrk clients, capture on): the tick's statements
 * (frame inserts, exchange upserts and updates, frame links, session upserts, door records) were
 * about a fifth of the tap's CPU, about 33 µs per call, all of it on the thread that forwards.
 * With the writes skipped outright (an upper bound for moving them) the tap carried 30 % more
 * calls, and the added p50 of one client fell by 0.17 ms.
 *
 * Deriving followed (issue 18, sixth pass): with the statements gone, deriving (about 28 µs a call)
 * and encoding the write (JSON of each summary, frame and door record) were the largest part of
 * what capture still cost the tap's thread. With deriving skipped outright, as an upper bound, the
 * tap carried 25 % more calls at 50 clients (bench/README.md). So once the thread is up the
 * pipeline hands deriving over (`adopt`): the thread has warmed its own deriver from the store, and
 * from then on each tick posts only the frames and door records it gathered (tick-thread.ts).
 * Before that (while the thread starts, about half a second), and on `:memory:`, the pipeline
 * derives and the store encodes on the tap's thread, and the thread, if up, runs the encoded list
 * (`write`).
 *
 * One write is in flight at a time (the pipeline waits for the answer before its next write,
 * gathering the frames meanwhile), and the pipeline tells its listeners only after the answer: the
 * dashboard still never sees a frame that is not committed. `settle()` waits (blocking, bounded)
 * for the write under way, for shutdown and imports, which must end with everything stored.
 *
 * A failure keeps its SQLite code (`code`, `errcode`) so the pipeline can tell a full or read-only
 * store from anything else (capture-health.ts). If the thread itself dies, the write under way
 * fails as `gone`; the pipeline warms a deriver of its own from the store, as a restart would, and
 * writes on the store's connection from then on (the write under way again, unless it committed).
 */
import { AnsweringWorker, moduleWorkerUrl } from './answering-worker.js';
import { WRITER_AUTOCHECKPOINT_PAGES } from './wal-checkpointer.js';
import type { ThreadAnswer, ThreadFailure, ThreadRequest, TickRequest, TickThreadData } from './tick-thread.js';

/** How long `settle()` waits for a write under way (a large frame's pieces may hold the file's lock). */
const SETTLE_MS = 30_000;
/** How long the writer's connection waits for another connection's lock (the large-frame writer's, a retention delete). */
const BUSY_TIMEOUT_MS = 30_000;

/** A write's outcome: its failure, as the pipeline classifies it (capture-health.ts `storageProblem`). */
export interface TickWriteFailure extends Error {
  code?: string;
  errcode?: number;
  /** The thread is gone (the write may or may not have committed: its first frame tells). */
  gone?: true;
}

export type { ThreadAnswer } from './tick-thread.js';

/** What a write's `landed` is given: the thread's answer, or the thread's death. */
export type TickLanded = (answer: ThreadAnswer | TickWriteFailure) => void;

/** One capture file's tick writer: a worker thread with its own connection. */
export class TickWriter {
  private readonly thread: AnsweringWorker<ThreadAnswer>;
  private nextId = 0;
  /** The write under way, if any (one at a time). */
  private pending: { id: number; landed: TickLanded } | undefined;
  private state: 'starting' | 'ready' | 'gone' = 'starting';
  /** Set once the pipeline has handed deriving over: ticks carry frames, not statements. */
  private deriving = false;

  /** `onGone` hears once if the thread dies or cannot start (writes go on, on the store's connection). */
  constructor(
    file: string,
    private readonly onGone: (error: Error) => void = () => {},
  ) {
    const workerData: TickThreadData = { file, busyMs: BUSY_TIMEOUT_MS, autocheckpoint: WRITER_AUTOCHECKPOINT_PAGES };
    this.thread = new AnsweringWorker<ThreadAnswer>(moduleWorkerUrl('tick-thread', import.meta.url), { ...workerData }, (answer) => this.answered(answer), (error) => this.fail(new Error(`the tick writer thread stopped: ${error.message}`, { cause: error })), { claimsLate: true });
  }

  /** Whether writes go here: the thread has opened its connection, and is alive. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Whether the thread derives (after `adopt`, while it lives). */
  get derives(): boolean {
    return this.deriving && this.state === 'ready';
  }

  /** Hands deriving to the thread: call between writes, with every frame derived so far committed. */
  adopt(): void {
    if (this.state !== 'ready' || this.pending) throw new Error('tick writer: not ready to derive');
    this.deriving = true;
    this.send({ type: 'adopt' });
  }

  /** Runs `ops` (an encoded write) in one transaction; `landed` runs once, from a later turn of the event loop or from `settle()`. */
  write(ops: unknown[], landed: TickLanded): void {
    this.request((id) => ({ type: 'write', id, ops }), landed);
  }

  /** Derives, encodes and writes a tick's frames and door records there (after `adopt`). */
  tick(work: Omit<TickRequest, 'type' | 'id'>, landed: TickLanded): void {
    this.request((id) => ({ type: 'tick', id, ...work }), landed);
  }

  /** Has the thread store its deriver's snapshot (between writes, for shutdown), and waits for that; throws what it failed with. */
  snapshot(): void {
    let failed: Error | undefined;
    this.request((id) => ({ type: 'snapshot', id }), (answer) => {
      if (isGone(answer)) failed = answer;
      else if (answer.error) failed = threadError(answer.error);
    });
    this.settle();
    if (failed) throw failed;
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

  private request(make: (id: number) => ThreadRequest, landed: TickLanded): void {
    if (this.state !== 'ready' || this.pending) throw new Error('tick writer: not ready for a write');
    const id = ++this.nextId;
    this.pending = { id, landed };
    this.send(make(id));
  }

  private send(message: ThreadRequest): void {
    this.thread.post(message);
  }

  private answered(message: ThreadAnswer): void {
    if (message.id === 0) {
      // The thread could not open its connection: the store keeps writing on its own.
      if (message.ready && this.state === 'starting') this.state = 'ready';
      else if (message.error) this.fail(threadError(message.error));
      return;
    }
    const pending = this.pending;
    if (!pending || pending.id !== message.id) return;
    this.pending = undefined;
    pending.landed(message);
  }

  /** The thread died (or could not open): the write under way fails as gone, and no write comes here again. */
  private fail(error: Error): void {
    if (this.state === 'gone') return;
    this.state = 'gone';
    const pending = this.pending;
    this.pending = undefined;
    this.thread.stop();
    this.onGone(error);
    pending?.landed(Object.assign(error, { gone: true as const }));
  }
}

/** A failure as the thread sent it, as an Error with its SQLite code (capture-health.ts reads it). */
export function threadError(failure: ThreadFailure): TickWriteFailure {
  return Object.assign(new Error(failure.message), failure);
}

/** Whether a write's `landed` was given the thread's death rather than its answer. */
export function isGone(outcome: ThreadAnswer | TickWriteFailure): outcome is TickWriteFailure {
  return outcome instanceof Error;
}
