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
 * `:memory:`. Ticks wait in the queue until the worker is up. If the worker dies, an engine in
 * process takes over, warmed from the store as opening a capture is; the tick it died under is
 * written again, or, if it had committed, derived again for its texts only.
 *
 * Durability window: a frame handed to `record()` is written within WRITE_EVERY_MS (5 ms), with
 * whatever else arrived meanwhile. One tick is in flight at a time: frames that arrive while one
 * is under way go in the next, so a frame is committed within 5 ms plus the tick before it.
 * `whenWritten()` is how code that must read what it just recorded waits for it.
 *
 * Large frames (a body past LARGE_BODY_BYTES, on a capture file) are stored by the large-frame
 * writer (large-writer.ts) and this thread never holds their text. Order and the promise stay: the
 * tick that reaches a large frame writes the frames before it, then hands the large one to the
 * writer and holds everything after it (frames, door records, hub publishes) until the writer has
 * committed the text's pieces; then the next tick writes the frame's row (its head) with its
 * derived rows, so readers see the frame whole and at once, and the held traffic follows,
 * TICK_LIMIT frames a tick. A crash in that window loses the large frame and what was held, as a
 * crash loses the current tick (pieces stored without their row are deleted on the next open).
 *
 * Door records (every HTTP request at the tap) ride the same ticks: the tap's recorder changes a
 * record in place and calls `doorChanged`; a tick writes the ready ones (door-queue.ts) in the
 * same transaction as its frames, and shutdown writes everything.
 *
 * The engine warms its deriver from the stored snapshot and the frames after it (or, without a
 * usable snapshot, every stored frame), so capture that continues after a restart pairs and counts
 * exactly as if it had never stopped (deriver-snapshot.ts).
 *
 * A capture failure never stops forwarding and never escapes a tick (capture-health.ts): a store
 * that cannot take writes (disk full, read-only) pauses capture — the engine holds the tick's
 * write, retried every RETRY_MS, and frames and door records meanwhile are counted as not
 * recorded — and a tick the deriver or the store fails on for any other reason keeps its frames
 * without derived rows (`mcpscope rebuild` derives them again), or at worst counts them as not
 * recorded.
 */
import { classifyText, type DoorRecord, type Frame, type FrameInput, type Message } from '@mcpscope/protocol';
import type { DerivedBatch } from './rederive.js';
import { isOAuthEndpoint, redactBodySecrets } from '../redaction/redact-body.js';
import { redactUrlSecrets } from '../redaction/redact-url.js';
import type { CaptureStore } from './capture-store.js';
import { Retention, type RetentionLimits } from './retention.js';
import { CaptureHealth, storageProblem } from './capture-health.js';
import { CaptureMarks } from './capture-marks.js';
import type { WriteResult } from './capture-store.js';
import { captureBatch, type BatchListener, type CaptureBatch } from './capture-batch.js';
import { LargeWriter, type LargeResult } from './large-writer.js';
import type { LargeBody } from './record-port.js';
import type { EnginePort, TickOutcome, TickWork } from './engine-contract.js';
import { InProcessEngine } from './in-process-engine.js';
import { WorkerEngine } from './worker-engine.js';
import { DoorQueue } from './door-queue.js';
import { CaptureImport } from './capture-import.js';

export type { ImportBatch } from './capture-import.js';

export type { BatchListener, CaptureBatch } from './capture-batch.js';

/**
 * How long frames gather before they are written (see the header). Each tick has a cost of its
 * own (a transaction, a message to the engine's worker and its wake-up), paid per tick rather than
 * per frame; nobody sees 5 ms in a dashboard.
 */
export const WRITE_EVERY_MS = 5;

/**
 * Frames one tick writes at most (the rest follow in the next turn of the event loop). A tick's
 * batch goes to every live dashboard as one message: past the hub's buffer bound (8 MiB) a
 * dashboard is told to resync instead of receiving it, which a burst (frames that piled up behind
 * a slow write, an import) must not cause. Ticks of a busy tap hold tens of frames.
 */
export const WRITE_LIMIT = 512;

export { OPEN_RECORD_DELAY_MS } from './door-queue.js';

/**
 * Frames (and door records) one tick writes at most when a backlog waits (after a large frame's
 * write, which holds the traffic behind it: about 5,000 frames a second at 10 clients).
 */
export const TICK_LIMIT = 100;

/**
 * How much traffic may wait in memory behind a write (a large frame's, a tick's on the engine's
 * worker, or the worker's start): past either bound, frames are forwarded but not stored, and counted
 * (`fellBehind` in GET /api/capture), so a write that lags (a slow disk, a starved writer thread)
 * costs capture, never the tap's memory or its clients. About 20 s of 10 busy clients, or 256 MiB
 * of text.
 */
export const HELD_LIMITS = { frames: 100_000, chars: 256 * 1024 * 1024 };

/** How often a paused capture tries its held write again. */
export const RETRY_MS = 2000;

export interface PipelineOptions {
  /**
   * Where the capture engine runs: on a worker thread (the default for a capture file) or in
   * this process (always for `:memory:`, which a worker cannot share).
   */
  engine?: 'worker' | 'in-process';
}


export class CapturePipeline {
  private seq: number;
  private queue: Frame[] = [];
  private scheduled = false;
  private closed = false;
  private readonly listeners = new Set<BatchListener>();
  /** Derives and writes each tick (engine-contract.ts): in process, or on its worker. */
  private engine: EnginePort;
  readonly retention: Retention;
  /** Door records waiting for a tick (door-queue.ts). */
  private readonly doorQueue: DoorQueue;
  readonly health: CaptureHealth;
  /** While paused: the write the store refused, retried by `retryTimer`. */
  private held: { frames: Frame[]; requests: DoorRecord[] } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Writes large frames off this thread (a capture file only: a worker cannot share `:memory:`). */
  private readonly largeWriter: LargeWriter | undefined;
  /** Queued large frames whose text is with the writer, until it has stored them. */
  private readonly largeBodies = new Map<Frame, LargeBody>();
  /** The large frame the writer is storing now; the queue waits behind it. */
  private storing: Frame | undefined;
  /** What the stored large frames' skeletons read as, for the deriver. */
  private readonly largeMessages = new WeakMap<Frame, Message>();
  /** Set from a large frame's landing until the traffic held behind it is written (TICK_LIMIT). */
  private draining = false;
  /** Text in the queue (HELD_LIMITS; large frames' text is with their writer, not counted). */
  private queuedChars = 0;
  /** The user's pause and resume, and labelled marks (capture-marks.ts). */
  readonly marks: CaptureMarks;
  /** Set while a tick is with the engine: the next one waits for its outcome. */
  private writing = false;
  /**
   * The highest seq written (and told to listeners): a batch's `head`. Not `seq`, which counts
   * frames recorded since, still queued: a dashboard resuming after a batch's head would skip them.
   */
  private writtenHead: number;
  /** Callers of `started`, until the engine takes ticks. */
  private readonly startWaiters: (() => void)[] = [];
  /** Callers of `whenWritten`, each waiting for the frames up to its seq. */
  private waiters: { seq: number; resolve: () => void }[] = [];

  constructor(
    private readonly store: CaptureStore,
    limits: RetentionLimits = {},
    health = new CaptureHealth(),
    private readonly heldLimits = HELD_LIMITS,
    options: PipelineOptions = {},
  ) {
    this.health = health;
    this.marks = new CaptureMarks(store.marks, this);
    this.seq = store.head();
    this.writtenHead = this.seq;
    const inProcess = store.file === ':memory:' || options.engine === 'in-process';
    this.engine = inProcess ? new InProcessEngine(store) : new WorkerEngine(store.file, store.replayLinks, () => this.engineStarted(), (err) => this.engineGone(err));
    this.retention = new Retention(store, limits);
    this.retention.enforce();
    this.doorQueue = new DoorQueue(store.door.heads(), { schedule: (now) => this.schedule(now), tick: () => this.tick() });
    if (store.file !== ':memory:') this.largeWriter = new LargeWriter(store.file);
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
    this.schedule();
  }

  /** The engine's worker died or could not start: capture goes on in process (slower, so it is said, not silent). */
  private engineGone(err: Error): void {
    this.health.noteError(err);
    if (!this.writing) this.engine = new InProcessEngine(this.store);
    // A tick in flight: its outcome (`gone`) replaces the engine (see `replayOnEngineInProcess`).
    for (const resolve of this.startWaiters.splice(0)) resolve();
    if (!this.closed) this.schedule();
  }

  /** Whether ticks are derived and written on the engine's worker now (else in this process, or it is still starting). */
  get engineOnWorker(): boolean {
    return this.engine instanceof WorkerEngine && this.engine.ready;
  }

  /** A body for the large-frame writer, or undefined (no capture file, paused, or closed). */
  largeBody(): LargeBody | undefined {
    if (this.closed || !this.health.storing) return undefined;
    return this.largeWriter?.open();
  }

  /**
   * Queues a frame; it is stored with the next tick (within WRITE_EVERY_MS). Returns its seq.
   * With `large`, the frame's text is that body's (large-writer.ts) and `input.raw` is ignored; it
   * is stored once the frames before it are (see the header).
   */
  record(input: FrameInput, large?: LargeBody): number {
    // After shutdown, streams that are still unwinding have nowhere to go.
    if (this.closed) {
      large?.abandon();
      return -1;
    }
    if (!this.health.storing) {
      large?.abandon();
      this.health.notRecorded(1);
      return -1;
    }
    if ((this.storing || this.writing || !this.engine.ready) && (this.queue.length >= this.heldLimits.frames || this.queuedChars >= this.heldLimits.chars)) {
      large?.abandon();
      this.health.fellBehind();
      return -1;
    }
    if (!large) this.queuedChars += input.raw.length;
    if (large) {
      const frame: Frame = { ...this.redactedHttp(input), raw: '', seq: ++this.seq };
      this.largeBodies.set(frame, large);
      this.queue.push(frame);
      this.schedule();
      return frame.seq;
    }
    // JSON on an MCP endpoint is MCP traffic, even when malformed: a string "code" there is a tool
    // argument or junk, never an OAuth code, and stays as sent. OAuth endpoints and form bodies
    // are read as OAuth traffic, where `code` is the authorization code.
    const mcp = isMcpBody(input.http?.path, input.raw);
    const frame: Frame = { ...this.redactedHttp(input), raw: redactBodySecrets(input.raw, mcp), seq: ++this.seq };
    this.queue.push(frame);
    this.schedule();
    return frame.seq;
  }

  /** `?api_key=…` in the URL a client used is a credential too: every frame's path loses it. */
  private redactedHttp(input: FrameInput): FrameInput {
    const path = input.http && redactUrlSecrets(input.http.path);
    return path !== undefined && path !== input.http!.path ? { ...input, http: { ...input.http!, path } } : input;
  }

  /** The id for a new door record (arrival order, continuing the file's). */
  nextDoorId(): number {
    return this.doorQueue.nextId();
  }

  /** The highest door-record `rev` written (the WebSocket's door cursor). */
  get requestsRev(): number {
    return this.doorQueue.rev;
  }

  /** A door record was created or changed (in place): it is written with a coming tick (door-queue.ts). */
  doorChanged(record: DoorRecord): void {
    if (this.closed) return;
    // Paused: the record's later changes are written once capture resumes; this state is not.
    if (!this.health.storing) return;
    this.doorQueue.changed(record);
  }

  /** A tick within WRITE_EVERY_MS, or, for a backlog being worked off (`soon`), in the next turn of the event loop. */
  private schedule(soon = false): void {
    if (!this.scheduled) {
      this.scheduled = true;
      if (soon) setImmediate(() => this.tick());
      else setTimeout(() => this.tick(), WRITE_EVERY_MS);
    }
  }

  /**
   * Resolves once every frame recorded so far is written and its batch told to listeners (or
   * given up: capture paused or closed).
   */
  whenWritten(): Promise<void> {
    const seq = this.seq;
    if (this.settledThrough(seq)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  /** Whether nothing up to `seq` is still queued or on its way to the store. */
  private settledThrough(seq: number): boolean {
    if (this.closed || this.held) return true;
    if (this.writing || this.storing) return false;
    const first = this.queue[0];
    return first === undefined || first.seq > seq;
  }

  /** Tells the waiters whose frames are all written (after each write's answer). */
  private wake(): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (this.settledThrough(w.seq)) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
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

  /**
   * Writes everything queued before returning, WRITE_LIMIT frames a tick, waiting for the
   * engine (an import is stored when its request is answered; a mark goes after what was
   * recorded before it; `mcpscope open` serves a file once it is loaded). A large frame's write is
   * left to its writer. With `everything`, door records still under way are written too.
   */
  flush(everything = false): void {
    for (;;) {
      this.engine.settle();
      if ((this.queue.length === 0 && this.doorQueue.size === 0) || this.closed || this.held || this.storing) break;
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
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.engine.settle();
    if (this.held) this.retryHeld();
    this.flush(true);
    // Large frames in the queue: each is written (waiting for the writer), then what follows it.
    while (this.storing && this.largeWriter) {
      this.largeWriter.settle();
      if (this.storing) break;
      this.flush(true);
    }
    this.largeWriter?.stop();
    // A full disk at shutdown loses only the snapshot: the next start replays the frames instead.
    const snapshot = !this.closed && this.store.db.open && !this.health.paused;
    if (!this.closed) this.guard(() => this.engine.close(snapshot));
    this.closed = true;
    this.wake();
  }

  /** One tick: writes what is queued, up to its limit (see schedule). Never throws. */
  private tick(everything = false): void {
    this.scheduled = false;
    // A large frame being stored holds everything behind it (see the header); a tick with the
    // engine schedules the next one with its outcome; a worker still starting, with its start.
    if ((this.queue.length === 0 && this.doorQueue.size === 0) || this.closed || this.held || this.storing || this.writing || !this.engine.ready) return;
    let frames = this.queue;
    // The first large frame not stored yet: the frames before it are written now, it goes to the
    // writer, and the rest wait for it. (No large frame queued: nothing to look for.)
    const at = this.largeBodies.size === 0 ? -1 : frames.findIndex((f) => this.largeBodies.has(f));
    const large = at === -1 ? undefined : frames[at]!;
    if (at === 0) return this.storeLarge(large!);
    const ready = at === -1 ? frames.length : at;
    // The backlog held behind a large frame is written TICK_LIMIT frames at a time, so no one tick
    // holds the event loop for long; door records follow once their frames are written. Any other
    // tick writes at most WRITE_LIMIT (what piled up behind a slow write, an import): one batch
    // stays small enough for a dashboard to take live. Shutdown writes everything, as one.
    const limit = everything ? Infinity : this.draining ? TICK_LIMIT : WRITE_LIMIT;
    const split = ready > limit;
    const requests = split ? [] : this.doorQueue.take(everything, limit);
    if (!split && requests.length < limit) this.draining = false;
    if (frames.length === 0 && requests.length === 0) return;
    const cut = split ? limit : ready;
    if (cut === frames.length) {
      this.queue = [];
      this.queuedChars = 0;
    } else {
      this.queue = frames.slice(cut);
      frames = frames.slice(0, cut);
      // (A stored large frame's text is read back from the store: never counted, never measured.)
      for (const f of frames) if (!f.stored) this.queuedChars -= f.raw.length;
      this.queuedChars = Math.max(0, this.queuedChars);
    }
    if (split) this.schedule(true);
    // The large frame goes to its writer once the frames before it are committed.
    this.write(frames, requests, large && !split ? () => this.storeLarge(large) : undefined);
  }

  /** Hands the large frame at the head of the queue to the writer; the queue waits for it. */
  private storeLarge(frame: Frame): void {
    this.storing = frame;
    this.largeWriter!.write(this.largeBodies.get(frame)!, frame, (result) => this.largeLanded(frame, result));
  }

  /** The writer is done with a large frame: it joins the queue's next tick, whatever the outcome. */
  private largeLanded(frame: Frame, result: LargeResult): void {
    this.storing = undefined;
    this.draining = true;
    this.largeBodies.delete(frame);
    if (result.kind === 'stored') {
      frame.stored = { chars: result.chars, bytes: result.bytes, head: result.head, pieces: result.pieces };
      // Whoever reads the whole text (an export of the batch, a listener) reads it back.
      const store = this.store;
      Object.defineProperty(frame, 'raw', { enumerable: true, configurable: true, get: () => store.frameRaw(frame.seq)?.raw ?? '' });
      const message = classifyText(result.skeleton);
      if (message.kind !== 'invalid') this.largeMessages.set(frame, message);
    } else if (result.kind === 'returned') {
      // Redaction, or no skeleton to derive from: this thread's path, as for any frame.
      frame.raw = redactBodySecrets(result.text, isMcpBody(frame.http?.path, result.text));
    } else {
      this.health.noteError(result.error);
      this.health.notRecorded(1);
      this.queue = this.queue.filter((f) => f !== frame);
    }
    if (this.closed) return;
    this.schedule(true);
    this.wake();
  }

  /**
   * Hands one tick to the engine; its outcome comes later (or at once, in process). On a storage
   * failure the engine holds the write and capture pauses (see the header). `then` runs after a
   * successful write.
   */
  private write(frames: Frame[], requests: DoorRecord[], then?: () => void): void {
    this.writing = true;
    const work: TickWork = { frames, requests, largeMessages: this.largeMessages };
    this.engine.tick(work, (outcome) => {
      this.writing = false;
      this.ticked(outcome, work, then);
      if (!this.closed && (this.queue.length > 0 || this.doorQueue.size > 0)) this.schedule();
      this.wake();
    });
  }

  private ticked(outcome: TickOutcome, work: TickWork, then?: () => void): void {
    for (const noted of outcome.noted ?? []) this.health.noteError(noted);
    if (outcome.ok) {
      this.written(outcome.texts, work.frames, work.requests, outcome.derived);
      then?.();
      return;
    }
    if (outcome.gone) return this.replayOnEngineInProcess(work, then);
    const problem = storageProblem(outcome.failure);
    if (problem !== undefined && outcome.held) return this.pause(problem, outcome.failure, { frames: work.frames, requests: work.requests });
    this.health.noteError(outcome.failure);
    this.health.notRecorded(work.frames.length, work.requests.length);
  }

  /**
   * The engine's worker died under a tick. An engine in process takes over, warmed from the store
   * as opening a capture is, through the frames before this tick; the tick is then written again,
   * or, if the worker had committed it, derived for its texts only.
   */
  private replayOnEngineInProcess(work: TickWork, then?: () => void): void {
    const first = work.frames[0]?.seq;
    const committed = first !== undefined && this.store.hasFrame(first);
    const engine = new InProcessEngine(this.store, first === undefined ? undefined : first - 1);
    this.engine = engine;
    const done = (outcome: TickOutcome) => this.ticked(outcome, work, then);
    if (committed) engine.tickCommitted(work, done);
    else engine.tick(work, done);
  }

  private pause(reason: string, err: unknown, held: NonNullable<CapturePipeline['held']>): void {
    this.held = held;
    this.health.pause(reason, err);
    // Waiting frames are not stored either; new ones are counted as they come (record()).
    this.health.notRecorded(this.queue.length, this.doorQueue.clear());
    this.queue = [];
    this.queuedChars = 0;
    for (const body of this.largeBodies.values()) body.abandon();
    this.largeBodies.clear();
    this.retryTimer ??= setInterval(() => this.retryHeld(), RETRY_MS);
    this.retryTimer.unref();
  }

  /** Has the engine write the held write again; resumes capture when the store takes it. */
  private retryHeld(): void {
    const held = this.held!;
    if (this.writing || !this.engine.ready) return;
    this.writing = true;
    this.engine.retry((outcome) => {
      this.writing = false;
      if (!outcome.ok) {
        if (outcome.gone || storageProblem(outcome.failure) === undefined) {
          // The store answers again but not for this write: give it up, resume with what comes next.
          this.health.noteError(outcome.failure);
          this.health.notRecorded(held.frames.length, held.requests.length);
          this.resume();
        }
        return;
      }
      this.resume();
      this.written(outcome.texts, held.frames, held.requests, outcome.derived);
    });
  }

  private resume(): void {
    this.held = undefined;
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    this.health.resume();
  }

  /** After a write: retention, then the listeners. */
  private written(texts: WriteResult, frames: Frame[], requests: DoorRecord[], derived?: DerivedBatch): void {
    if (frames.length > 0) this.writtenHead = Math.max(this.writtenHead, frames[frames.length - 1]!.seq);
    const batch: CaptureBatch = captureBatch(texts, derived, { frames, head: this.writtenHead, requests: requests.map((r, i) => ({ id: r.id, json: texts.requests[i]! })), requestsRev: this.doorQueue.rev });
    const trim = this.guard(() => this.retention.afterWrite(frames, requests.length));
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

/** Whether a body is read as MCP traffic when redacting (see `record`). */
function isMcpBody(path: string | undefined, raw: string): boolean {
  return !isOAuthEndpoint(path) && /^\s*[[{]/.test(raw);
}
