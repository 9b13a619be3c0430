/**
 * Where captured frames go: the tap hands frames to `record()`, which redacts them and returns at
 * once (the forwarding path never waits for deriving or disk). Once per tick (every
 * WRITE_EVERY_MS while frames wait) the pipeline hands the frames and door records gathered to
 * the capture engine (engine-contract.ts), which derives, encodes and writes them in one
 * transaction; then the pipeline applies retention, and only then tells listeners, so a frame is
 * never broadcast before it is stored.
 *
 * Where the engine runs is chosen when the capture opens: on its worker thread for a capture file
 * (worker-engine.ts: the tap's thread then does neither the deriving nor the SQL), in process for
 * `:memory:`. Ticks wait in the queue until the worker is up. A worker that dies is replaced by a
 * new one, which writes the tick the dead one had (engine-supervisor.ts); the pipeline hears only
 * that tick's outcome.
 *
 * Durability window: a frame handed to `record()` is written within WRITE_EVERY_MS (5 ms), with
 * whatever else arrived meanwhile. One tick is in flight at a time: frames that arrive while one
 * is under way go in the next, so a frame is committed within 5 ms plus the tick before it.
 * `whenWritten()` is how code that must read what it just recorded waits for it.
 *
 * Large frames (a body past LARGE_BODY_BYTES, on a capture file) are stored by the large-frame
 * writer (large-writer.ts) and this thread never holds their text. Order and the promise stay: the
 * tick that reaches a large frame writes the frames before it, then hands the large one to the
 * writer, and everything after it (frames, door records, hub publishes) waits until the writer has
 * committed the text's pieces; then the next tick writes the frame's row (its head) with its
 * derived rows, so readers see the frame whole and at once, and the traffic that waited follows,
 * TICK_LIMIT frames a tick. A crash in that window loses the large frame and what waited, as a
 * crash loses the current tick (pieces stored without their row are deleted on the next open).
 *
 * Door records (every HTTP request at the tap) ride the same ticks: the tap's recorder changes a
 * record in place and calls `doorChanged`; a tick writes the ready ones (tick-queue.ts) in the
 * same transaction as its frames, and shutdown writes everything.
 *
 * The engine warms its deriver from the stored snapshot and the frames after it (or, without a
 * usable snapshot, every stored frame), so capture that continues after a restart pairs and counts
 * exactly as if it had never stopped (capture-engine.ts).
 *
 * Listeners (the live hub, the OTLP export, replay waiting for its exchange) are told each write
 * as a CaptureBatch. Its summaries are the JSON texts the write stored; the objects are read from
 * them only when a listener asks: when the engine derives on its worker, the tap's thread has no
 * objects of its own, and a capture with no dashboard open and no export should not parse what
 * nobody reads.
 *
 * What the pipeline is doing with the store is one state (pipeline-state.ts: idle, writing,
 * writingLarge, paused, closed), changed in one place (`enter`); only `idle` starts a tick.
 *
 * A capture failure never stops forwarding and never escapes a tick (capture-health.ts): a store
 * that cannot take writes (disk full, read-only) pauses capture — the engine keeps the refused
 * write, retried every RETRY_MS (refused-write-retry.ts), and frames and door records meanwhile
 * are counted as not recorded — and a tick the deriver or the store fails on for any other
 * reason keeps its frames without derived rows (`mcpscope rebuild` derives them again), or at
 * worst counts them as not recorded.
 */
import type { ConversationSummary, DoorRecord, ExchangeSummary, Frame, FrameInput, Message, SessionSummary } from '@mcpscope/protocol';
import type { DerivedBatch } from './capture-engine.js';
import type { CaptureStore, WriteResult } from './capture-store.js';
import { Retention, type RetentionLimits, type Trim } from './retention.js';
import { CaptureHealth, storageProblem } from './capture-health.js';
import { CaptureMarks } from './capture-marks.js';
import type { TickTexts } from './tick-ops.js';
import { LargeWriter, type LargeResult } from './large-writer.js';
import type { LargeBody, RecordPort } from './record-port.js';
import type { EnginePort, TickOutcome, TickWork } from './engine-contract.js';
import { InProcessEngine } from './in-process-engine.js';
import { EngineSupervisor } from './engine-supervisor.js';
import { RefusedWriteRetry } from './refused-write-retry.js';
import { CaptureImport } from './capture-import.js';
import { QUEUE_LIMITS, TICK_LIMIT, WRITE_EVERY_MS, WRITE_LIMIT } from './pipeline-limits.js';
import type { PipelineState } from './pipeline-state.js';
import { DoorQueue, FrameQueue } from './tick-queue.js';
import { redactFrameBody, redactFramePath } from '../redaction/redact-secrets.js';
import { applyLargeResult } from './large-frame-result.js';

export type { ImportBatch } from './capture-import.js';
export { QUEUE_LIMITS, RETRY_MS, TICK_LIMIT, WRITE_EVERY_MS, WRITE_LIMIT } from './pipeline-limits.js';
export { OPEN_RECORD_DELAY_MS } from './tick-queue.js';

/** What listeners are told after each write (see the header). */
export interface CaptureBatch {
  frames: Frame[];
  /** Each exchange this write changed, by id, with its summary as the JSON text stored (same order). */
  exchangeIds: string[];
  exchangeJson: string[];
  /** The same summaries as objects (read from the texts on first use). */
  readonly exchanges: ExchangeSummary[];
  readonly sessions: SessionSummary[];
  readonly conversations: ConversationSummary[];
  head: number;
  /** Door records written this write, with the JSON text stored (each at its latest state). */
  requests: { id: number; json: string }[];
  /** The highest door-record `rev` written so far. */
  requestsRev: number;
  /** Set when retention removed old frames after this batch was written. */
  retention?: Trim;
}

export type BatchListener = (batch: CaptureBatch) => void;

export interface PipelineOptions {
  /**
   * Where the capture engine runs: on a worker thread (the default for a capture file) or in
   * this process (always for `:memory:`, which a worker cannot share).
   */
  engine?: 'worker' | 'in-process';
}

export class CapturePipeline {
  /** What the pipeline is doing with the store (pipeline-state.ts); changed only by `enter`. */
  private state: PipelineState = { kind: 'idle' };
  /** The highest seq given to a frame (queued or written). */
  private seq: number;
  private readonly queue = new FrameQueue();
  /** Set while a tick is armed (`armTick`): at most one at a time. Any tick that runs clears it. */
  private tickArmed = false;
  private readonly listeners = new Set<BatchListener>();
  /** Derives and writes each tick (engine-contract.ts): in process, or on its worker. */
  private engine: EnginePort;
  readonly retention: Retention;
  /** Whether retention has limits (fixed when the capture opens): without, a write has nothing to trim. */
  private readonly trims: boolean;
  /** Door records waiting for a tick (tick-queue.ts). */
  private readonly doorQueue: DoorQueue;
  readonly health: CaptureHealth;
  /** Retries the refused write while the state is `paused`. */
  private readonly retry: RefusedWriteRetry;
  /** Writes large frames off this thread (a capture file only: a worker cannot share `:memory:`). */
  private readonly largeWriter: LargeWriter | undefined;
  /** What the stored large frames' skeletons read as, for the deriver. */
  private readonly largeMessages = new WeakMap<Frame, Message>();
  /**
   * Set from a large frame's write until the backlog queued behind it is written: ticks then take
   * TICK_LIMIT frames, not WRITE_LIMIT. Not a state: it sizes the next tick, whatever the state.
   */
  private backlogBehindLarge = false;
  /** The user's pause and resume, and labelled marks (capture-marks.ts). */
  readonly marks: CaptureMarks;
  /**
   * The highest seq written (and told to listeners): a batch's `head`. Not `seq`, which counts
   * frames recorded since, still queued: a dashboard resuming after a batch's head would skip them.
   */
  private writtenHead: number;
  /** Callers of `started`, until the engine takes ticks. */
  private readonly startWaiters: (() => void)[] = [];
  /** Callers of `whenWritten`, each waiting for the frames up to its seq. */
  private writtenWaiters: { seq: number; resolve: () => void }[] = [];

  constructor(
    private readonly store: CaptureStore,
    limits: RetentionLimits = {},
    health = new CaptureHealth(),
    private readonly queueLimits = QUEUE_LIMITS,
    options: PipelineOptions = {},
  ) {
    this.health = health;
    this.marks = new CaptureMarks(store.marks, this);
    this.seq = store.head();
    this.writtenHead = this.seq;
    const inProcess = store.file === ':memory:' || options.engine === 'in-process';
    this.engine = inProcess ? new InProcessEngine(store) : new EngineSupervisor(store, health, (engine) => (this.engine = engine), () => this.engineStarted()).start();
    this.retry = new RefusedWriteRetry(health, {
      engine: () => this.engine,
      state: () => this.state,
      enter: (next) => this.enter(next),
      written: (outcome, refused) => this.tellListeners(outcome.texts, refused.frames, refused.requests, outcome.derived),
    });
    this.retention = new Retention(store, limits);
    this.trims = this.retention.active;
    this.retention.enforce();
    this.doorQueue = new DoorQueue(store.door.heads(), { schedule: (nextTurn) => this.armTick(nextTurn), tick: () => this.tick() });
    if (store.file !== ':memory:') this.largeWriter = new LargeWriter(store.file);
  }

  /**
   * The one place the state changes. `closed` is final. Entering `paused` pauses the capture's
   * health and arms the retry; leaving it disarms the retry, and resumes the health unless the
   * capture closes paused (the next start sees the store as it is).
   */
  private enter(next: PipelineState): void {
    const from = this.state;
    if (from.kind === 'closed') return;
    this.state = next;
    if (next.kind === 'paused' && from.kind !== 'paused') {
      this.health.pause(next.reason, next.error);
      this.retry.arm();
    }
    if (from.kind === 'paused' && next.kind !== 'paused') {
      this.retry.disarm();
      if (next.kind !== 'closed') this.health.resume();
    }
  }

  /** Whether a write is with the engine (a tick, or a paused capture's retry). */
  private get writing(): boolean {
    return this.state.kind === 'writing' || (this.state.kind === 'paused' && this.state.retrying);
  }

  /**
   * Resolves once the engine takes ticks (its worker is up, or capture went on in process): the
   * tap starts listening after it, so a frame it records is committed within WRITE_EVERY_MS.
   */
  started(): Promise<void> {
    if (this.engine.ready) return Promise.resolve();
    // The worker does not keep the process alive (answering-worker.ts): the wait does.
    const alive = setInterval(() => {}, 60_000);
    return new Promise<void>((resolve) => this.startWaiters.push(resolve)).finally(() => clearInterval(alive));
  }

  private engineStarted(): void {
    for (const resolve of this.startWaiters.splice(0)) resolve();
    this.armTick();
  }

  /** The id of the worker thread ticks are derived and written on now; undefined in process, or while a worker starts. */
  get engineThread(): number | undefined {
    return this.engine.threadId;
  }

  /** Whether ticks are derived and written on the engine's worker now (else in this process, or it is still starting). */
  get engineOnWorker(): boolean {
    return this.engine.threadId !== undefined;
  }

  /** A body for the large-frame writer, or undefined (no capture file, paused, or closed). */
  largeBody(): LargeBody | undefined {
    if (this.state.kind === 'closed' || !this.health.storing) return undefined;
    return this.largeWriter?.open();
  }

  /**
   * The record port the tap feeds (record-port.ts): `record`, then `watch` told the frame, recorded
   * or not (intercept's reaction watch sees what the tap sees; imported frames never reach it).
   */
  recordPort(watch: (input: FrameInput) => void): RecordPort {
    return (input, large) => {
      const seq = this.record(input, large);
      watch(input);
      return seq;
    };
  }

  /**
   * Queues a frame, redacted; it is stored with the next tick (within WRITE_EVERY_MS). Returns its
   * seq, or -1 when it is not recorded. With `large`, the frame's text is that body's
   * (large-writer.ts) and `input.raw` is ignored; it is stored once the frames before it are (see
   * the header).
   */
  record(input: FrameInput, large?: LargeBody): number {
    // After shutdown, streams that are still unwinding have nowhere to go.
    if (this.state.kind === 'closed') {
      large?.abandon();
      return -1;
    }
    // Paused (by the store, or by the user): counted, not stored.
    if (!this.health.storing) {
      large?.abandon();
      this.health.notRecorded(1);
      return -1;
    }
    const behindWrite = this.state.kind === 'writing' || this.state.kind === 'writingLarge' || !this.engine.ready;
    if (behindWrite && this.queue.full(this.queueLimits)) {
      large?.abandon();
      this.health.fellBehind();
      return -1;
    }
    if (large) {
      const frame: Frame = { ...redactFramePath(input), raw: '', seq: ++this.seq };
      this.queue.pushLarge(frame, large);
    } else {
      const frame: Frame = { ...redactFramePath(input), raw: redactFrameBody(input.http?.path, input.raw), seq: ++this.seq };
      this.queue.push(frame, input.raw.length);
    }
    this.armTick();
    return this.seq;
  }

  /** Arms a tick unless one is armed: within WRITE_EVERY_MS, or with `nextTurn` (a backlog being worked off) in the next turn of the event loop. */
  private armTick(nextTurn = false): void {
    if (this.tickArmed) return;
    this.tickArmed = true;
    if (nextTurn) setImmediate(() => this.tick());
    else setTimeout(() => this.tick(), WRITE_EVERY_MS);
  }

  /** The id for a new door record (arrival order, continuing the file's). */
  nextDoorId(): number {
    return this.doorQueue.nextId();
  }

  /** A door record was created or changed (in place): it is written with a coming tick (tick-queue.ts). */
  doorChanged(record: DoorRecord): void {
    if (this.state.kind === 'closed') return;
    // Paused: the record's later changes are written once capture resumes; this state is not.
    if (!this.health.storing) return;
    this.doorQueue.changed(record);
  }

  /**
   * Resolves once every frame recorded so far is written and its batch told to listeners (or
   * given up: capture paused or closed).
   */
  whenWritten(): Promise<void> {
    const seq = this.seq;
    if (this.settledThrough(seq)) return Promise.resolve();
    return new Promise((resolve) => this.writtenWaiters.push({ seq, resolve }));
  }

  /** Whether nothing up to `seq` is still queued or on its way to the store. */
  private settledThrough(seq: number): boolean {
    switch (this.state.kind) {
      case 'closed':
      case 'paused':
        return true;
      case 'writing':
      case 'writingLarge':
        return false;
      case 'idle': {
        const first = this.queue.firstSeq();
        return first === undefined || first > seq;
      }
    }
  }

  /** Tells the waiters whose frames are all written (after each write's outcome). */
  private wake(): void {
    if (this.writtenWaiters.length === 0) return;
    const still: typeof this.writtenWaiters = [];
    for (const w of this.writtenWaiters) {
      if (this.settledThrough(w.seq)) w.resolve();
      else still.push(w);
    }
    this.writtenWaiters = still;
  }

  /** Starts an import into this capture, stored a chunk at a time (capture-import.ts). */
  startImport(): CaptureImport {
    return new CaptureImport(this, this.store);
  }

  onBatch(listener: BatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get head(): number {
    return this.seq;
  }

  private get nothingQueued(): boolean {
    return this.queue.length === 0 && this.doorQueue.size === 0;
  }

  /**
   * Writes everything queued before returning, WRITE_LIMIT frames a tick, waiting for the
   * engine (an import is stored when its request is answered; a mark goes after what was
   * recorded before it; `mcpscope open` serves a file once it is loaded). A large frame's write is
   * left to its writer. With `everything`, door records still under way are written too.
   */
  flush(everything = false): void {
    for (;;) {
      this.engine.settle();
      if (this.nothingQueued || this.state.kind === 'closed' || this.state.kind === 'paused' || this.state.kind === 'writingLarge') break;
      const before = this.queue.length + this.doorQueue.size;
      this.tick(everything);
      // Door records still under way stay queued (their timer writes them): nothing more to do now.
      if (!this.writing && this.queue.length + this.doorQueue.size === before) break;
    }
    this.engine.settle();
  }

  /** Writes what is queued, and the deriver's snapshot, and accepts nothing more. */
  close(): void {
    this.doorQueue.stop();
    this.engine.settle();
    if (this.state.kind === 'paused') this.retry.now();
    this.flush(true);
    // Large frames in the queue: each is written (waiting for the writer), then what follows it.
    while (this.isWritingLarge() && this.largeWriter) {
      this.largeWriter.settle();
      if (this.isWritingLarge()) break;
      this.flush(true);
    }
    this.largeWriter?.stop();
    if (this.state.kind !== 'closed' && this.store.db.open && !this.health.paused) this.guard(() => this.retention.saveTally());
    if (this.state.kind !== 'closed') {
      // A full disk at shutdown loses only the snapshot: the next start replays the frames instead.
      const snapshot = this.store.db.open && !this.health.paused;
      this.guard(() => this.engine.close(snapshot));
    }
    this.enter({ kind: 'closed' });
    this.wake();
  }

  /** Read through a call, so a check after `settle()` is not narrowed away. */
  private isWritingLarge(): boolean {
    return this.state.kind === 'writingLarge';
  }

  /** One tick: writes what is queued, up to its limit. Only `idle` starts one. Never throws. */
  private tick(everything = false): void {
    this.tickArmed = false;
    if (this.state.kind !== 'idle' || !this.engine.ready || this.nothingQueued) return;
    // The backlog queued behind a large frame is written TICK_LIMIT frames at a time, so no one tick
    // holds the event loop for long; door records follow once their frames are written. Any other
    // tick writes at most WRITE_LIMIT (what piled up behind a slow write, an import): one batch
    // stays small enough for a dashboard to take live. Shutdown writes everything, as one.
    const limit = everything ? Infinity : this.backlogBehindLarge ? TICK_LIMIT : WRITE_LIMIT;
    const cut = this.queue.cut(limit);
    if (cut.write === 0 && cut.large) return this.writeLarge(cut.large);
    const doorRecords = cut.split ? [] : this.doorQueue.take(everything, limit);
    if (!cut.split && doorRecords.length < limit) this.backlogBehindLarge = false;
    if (this.queue.length === 0 && doorRecords.length === 0) return;
    const frames = this.queue.take(cut.write);
    if (cut.split) this.armTick(true);
    this.write(frames, doorRecords, cut.large);
  }

  /** Hands the large frame at the head of the queue to its writer; the queue waits for it. */
  private writeLarge(frame: Frame): void {
    this.enter({ kind: 'writingLarge', frame });
    this.largeWriter!.write(this.queue.largeBody(frame)!, frame, (result) => this.largeWritten(frame, result));
  }

  /** The writer is done with a large frame: it joins the queue's next tick, whatever the outcome. */
  private largeWritten(frame: Frame, result: LargeResult): void {
    this.enter({ kind: 'idle' });
    this.backlogBehindLarge = true;
    this.queue.largeDone(frame);
    if (result.kind === 'failed') {
      this.health.noteError(result.error);
      this.health.notRecorded(1);
      this.queue.drop(frame);
    } else {
      applyLargeResult(frame, result, this.store, this.largeMessages);
    }
    if (this.state.kind === 'closed') return;
    this.armTick(true);
    this.wake();
  }

  /**
   * Hands one tick to the engine; its outcome comes later (or at once, in process). On a storage
   * failure the engine keeps the refused write and capture pauses (see the header). `largeNext` goes to
   * its writer once the tick is committed.
   */
  private write(frames: Frame[], doorRecords: DoorRecord[], largeNext?: Frame): void {
    this.enter({ kind: 'writing' });
    const work: TickWork = { frames, requests: doorRecords, largeMessages: this.largeMessages };
    this.engine.tick(work, (outcome) => {
      this.enter({ kind: 'idle' });
      this.tickDone(outcome, work, largeNext);
      if (this.state.kind !== 'closed' && !this.nothingQueued) this.armTick();
      this.wake();
    });
  }

  private tickDone(outcome: TickOutcome, work: TickWork, largeNext?: Frame): void {
    for (const noted of outcome.noted ?? []) this.health.noteError(noted);
    if (outcome.ok) {
      this.tellListeners(outcome.texts, work.frames, work.requests, outcome.derived);
      if (largeNext) this.writeLarge(largeNext);
      return;
    }
    const problem = storageProblem(outcome.failure);
    if (problem !== undefined && outcome.keptForRetry) return this.pause(problem, outcome.failure, work);
    this.health.noteError(outcome.failure);
    this.health.notRecorded(work.frames.length, work.requests.length);
  }

  /** The store refused `refused` for where it lives: nothing is queued until it takes writes again. */
  private pause(reason: string, error: unknown, refused: TickWork): void {
    this.enter({ kind: 'paused', refused, reason, error, retrying: false });
    // Queued frames are not stored either; new ones are counted as they come (record()).
    this.health.notRecorded(this.queue.length, this.doorQueue.clear());
    this.queue.clear();
  }

  /** After a write: retention (with limits), then the listeners. */
  private tellListeners(texts: WriteResult, frames: Frame[], doorRecords: DoorRecord[], derived?: DerivedBatch): void {
    if (frames.length > 0) this.writtenHead = Math.max(this.writtenHead, frames[frames.length - 1]!.seq);
    const batch: CaptureBatch = captureBatch(texts, derived, { frames, head: this.writtenHead, requests: doorRecords.map((r, i) => ({ id: r.id, json: texts.requests[i]! })), requestsRev: this.doorQueue.rev });
    const trim = this.trims ? this.guard(() => this.retention.afterWrite(frames, doorRecords.length)) : undefined;
    if (trim) batch.retention = trim;
    for (const listener of this.listeners) this.guard(() => listener(batch));
  }

  /** Runs a step after a write that must not undo it: a failure is noted, never thrown. */
  private guard<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (err) {
      this.health.noteError(err);
      return undefined;
    }
  }
}

/** A batch from a write's texts; `derived` when this thread derived it (its objects, as they are). */
function captureBatch(
  texts: TickTexts,
  derived: DerivedBatch | undefined,
  rest: Pick<CaptureBatch, 'frames' | 'head' | 'requests' | 'requestsRev'>,
): CaptureBatch {
  let exchanges = derived?.exchanges;
  let sessions = derived?.sessions;
  let conversations = derived?.conversations;
  return {
    ...rest,
    exchangeIds: texts.exchangeIds,
    exchangeJson: texts.exchanges,
    get exchanges() {
      return (exchanges ??= texts.exchanges.map((t) => JSON.parse(t) as ExchangeSummary));
    },
    get sessions() {
      return (sessions ??= texts.sessions.map((t) => JSON.parse(t) as SessionSummary));
    },
    get conversations() {
      return (conversations ??= texts.conversations.map((t) => JSON.parse(t) as ConversationSummary));
    },
  };
}
