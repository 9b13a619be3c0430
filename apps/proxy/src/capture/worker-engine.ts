/**
 * The engine's port on a worker thread (engine-worker.ts), for a capture file: deriving, encoding
 * and SQLite never run on the tap's thread. The worker is started when the capture opens and warms
 * its engine from the store; ticks wait in the pipeline until it is up (`ready`, then `onReady`).
 *
 * Frames cross as a flat list of primitives (`flattenFrames`, read back on the worker by
 * `readFrames`), the HTTP layer as JSON text, and door records as their rows (tick-ops.ts
 * `doorRows`), which the worker stores as they are. Why not the objects: a structured clone of an
 * object walks its shape field by field (and a frame's HTTP layer is two header maps), while a flat
 * list of primitives is copied almost as bytes, and V8's JSON.stringify is faster than the clone's
 * object path. The texts are no extra work on the tap's thread: the store writes the HTTP layer as
 * exactly this JSON, which the worker stores as it is.
 *
 * One tick is in flight at a time; `settle()` waits for it (blocking, bounded), for shutdown and
 * imports. If the worker dies, `onGone` hears why, with the write in flight and who waits for its
 * outcome (`LostWrite`): engine-supervisor.ts replaces the worker and has the new one write it.
 */
import type { Frame, Message, StoredText } from '@mcpscope/protocol';
import { AnsweringWorker, moduleWorkerUrl } from './answering-worker.js';
import { failureError, type EngineAnswer, type EnginePort, type EngineRequest, type EngineWorkerData, type TickDone, type TickWork } from './engine-contract.js';
import type { ReplayLinks } from './replay-links.js';
import { AUTOCHECKPOINT_PAGES } from './capture-store.js';
import { doorRowTexts, doorRows } from './tick-ops.js';

/** How long `settle()` waits for the worker's start or a tick under way (a large frame's pieces may hold the file's lock). */
const SETTLE_MS = 30_000;
/** How long the worker's connection waits for another connection's lock (the large-frame writer's, a retention delete). */
const BUSY_MS = 30_000;
/**
 * How often the worker checkpoints the WAL between ticks. A checkpoint copies each page the WAL
 * holds once, however many ticks rewrote it, and the same few pages (each table's and index's
 * last leaf) are rewritten every tick: the longer the interval, the fewer copies per call (at 5
 * calls a tick, 100 ms cost about 13 µs of CPU per call more than 1 s). The WAL holds at most
 * what a second of ticks writes (tens of MB at full speed; AUTOCHECKPOINT_PAGES bounds it).
 * Durability does not depend on it: a commit is durable once it is in the WAL.
 */
const CHECKPOINT_MS = 1000;

/** The write a worker had when it died, and who waits for its outcome (engine-supervisor.ts writes it again). */
export interface LostWrite {
  work: TickWork;
  done: TickDone;
}

export class WorkerEngine implements EnginePort {
  private readonly thread: AnsweringWorker<EngineAnswer>;
  private state: 'starting' | 'ready' | 'gone' = 'starting';
  /** The worker's thread id, as it reported it when it was up. */
  private reportedThreadId: number | undefined;
  private nextId = 0;
  /** The request with the worker: a write (`work`) or the snapshot. */
  private pending: { id: number; done: TickDone; work?: TickWork; requests?: string[] } | undefined;
  /** Whether the worker keeps a write the storage refused (its last write's outcome said so). */
  private keepsRefused = false;

  /**
   * Starts the worker. `links` forwards the replay links made on this thread from now on (the
   * worker reads the table when it opens). `onGone` hears once if the worker dies or cannot start.
   * With `through`, the worker's deriver is warmed through that seq only (see CaptureEngine).
   */
  constructor(
    file: string,
    private readonly links: ReplayLinks,
    private readonly onReady: () => void,
    private readonly onGone: (error: Error, lost: LostWrite | undefined) => void,
    through?: number,
  ) {
    links.forwardNew();
    const data: EngineWorkerData = { file, busyMs: BUSY_MS, autocheckpoint: AUTOCHECKPOINT_PAGES, checkpointMs: CHECKPOINT_MS, ...(through === undefined ? {} : { through }) };
    this.thread = new AnsweringWorker<EngineAnswer>(moduleWorkerUrl('engine-worker', import.meta.url), { ...data }, (answer) => this.answered(answer), (error) => this.fail(new Error(`the capture engine's worker stopped: ${error.message}`, { cause: error })), { claimsLate: true });
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  get threadId(): number | undefined {
    return this.state === 'ready' ? this.reportedThreadId : undefined;
  }

  tick(work: TickWork, done: TickDone): void {
    this.sendTick(work, done, false);
  }

  tickCommitted(work: TickWork, done: TickDone): void {
    this.sendTick(work, done, true);
  }

  private sendTick(work: TickWork, done: TickDone, committed: boolean): void {
    const rows = doorRows(work.requests);
    this.request((id) => ({ type: 'tick', id, frames: flattenFrames(work.frames), doorRows: rows, messages: largeMessagesByIndex(work.frames, work.largeMessages), links: this.links.takeNew(), ...(committed ? { committed: true as const } : {}) }), done, work, doorRowTexts(rows));
  }

  retry(work: TickWork, done: TickDone): void {
    if (!this.keepsRefused) return this.sendTick(work, done, false);
    this.request((id) => ({ type: 'retry', id }), done, work);
  }

  settle(): void {
    this.thread.settle(() => this.state === 'starting' || this.pending !== undefined, SETTLE_MS);
  }

  close(snapshot: boolean): void {
    this.settle();
    if (snapshot && this.state === 'ready') {
      let failed: Error | undefined;
      this.request((id) => ({ type: 'snapshot', id }), (outcome) => {
        if (!outcome.ok) failed = outcome.failure;
      });
      this.settle();
      this.stop();
      if (failed) throw failed;
      return;
    }
    this.stop();
  }

  private stop(): void {
    this.state = 'gone';
    this.thread.stop();
  }

  private request(make: (id: number) => EngineRequest, done: TickDone, work?: TickWork, requests?: string[]): void {
    if (this.state !== 'ready' || this.pending) throw new Error('capture engine worker: not ready for a tick');
    const id = ++this.nextId;
    this.pending = { id, done, ...(work ? { work } : {}), ...(requests ? { requests } : {}) };
    this.thread.post(make(id));
  }

  private answered(answer: EngineAnswer): void {
    if (answer.id === 0) {
      if (answer.ready && this.state === 'starting') {
        this.state = 'ready';
        this.reportedThreadId = answer.thread;
        this.onReady();
      } else if (answer.error) this.fail(failureError(answer.error));
      return;
    }
    const pending = this.pending;
    if (!pending || pending.id !== answer.id) return;
    this.pending = undefined;
    if (pending.work) this.keepsRefused = answer.ok !== true && answer.keptForRetry === true;
    const noted = answer.noted ? { noted: answer.noted } : {};
    if (answer.ok) {
      // The door records' texts are this thread's own (it sent them): the worker does not send them back.
      const texts = answer.texts ?? { exchangeIds: [], exchanges: [], sessions: [], conversations: [], requests: [] };
      pending.done({ ok: true, texts: { ...texts, requests: pending.requests ?? texts.requests }, ...noted });
    } else {
      pending.done({ ok: false, failure: failureError(answer.error ?? { message: 'the capture engine failed' }), ...(answer.keptForRetry ? { keptForRetry: true as const } : {}), ...noted });
    }
  }

  /** The worker died or could not start: `onGone` gets the write in flight, and nothing comes here again. */
  private fail(error: Error): void {
    if (this.state === 'gone') return;
    this.state = 'gone';
    const pending = this.pending;
    this.pending = undefined;
    this.thread.stop();
    this.onGone(error, pending?.work ? { work: pending.work, done: pending.done } : undefined);
  }
}

/** What the stored large frames among `frames` read as, by index. */
function largeMessagesByIndex(frames: readonly Frame[], messages: WeakMap<Frame, Message>): [number, Message][] {
  const out: [number, Message][] = [];
  for (let i = 0; i < frames.length; i++) {
    const message = frames[i]!.stored && messages.get(frames[i]!);
    if (message) out.push([i, message]);
  }
  return out;
}

/** Fields per frame in the flat list. */
const FRAME_FIELDS = 9;

/** A tick's frames, flat; a large frame the writer stored goes without its text (its `raw` reads the store back). */
export function flattenFrames(frames: readonly Frame[]): unknown[] {
  const out: unknown[] = new Array(frames.length * FRAME_FIELDS);
  let i = 0;
  for (const f of frames) {
    out[i++] = f.seq;
    out[i++] = f.ts;
    out[i++] = f.sessionKey;
    out[i++] = f.direction;
    out[i++] = f.transport;
    out[i++] = f.kind;
    out[i++] = f.stored ? '' : f.raw;
    out[i++] = f.http ? JSON.stringify(f.http) : null;
    out[i++] = f.stored ?? null;
  }
  return out;
}

/** The frames of `flattenFrames`, with each HTTP layer's JSON text kept beside it (stored as it is). */
export function readFrames(flat: readonly unknown[]): { frames: Frame[]; httpJson: (string | null)[] } {
  const frames: Frame[] = [];
  const httpJson: (string | null)[] = [];
  for (let i = 0; i < flat.length; i += FRAME_FIELDS) {
    const http = flat[i + 7] as string | null;
    const stored = flat[i + 8] as StoredText | null;
    const frame = { seq: flat[i], ts: flat[i + 1], sessionKey: flat[i + 2], direction: flat[i + 3], transport: flat[i + 4], kind: flat[i + 5], raw: flat[i + 6] } as Frame;
    if (http !== null) frame.http = JSON.parse(http) as Frame['http'];
    if (stored !== null) frame.stored = stored;
    frames.push(frame);
    httpJson.push(http);
  }
  return { frames, httpJson };
}
