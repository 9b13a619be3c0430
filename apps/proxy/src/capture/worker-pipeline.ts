/**
 * Capture off the forwarding thread: the tap's side of the capture worker (capture-worker.ts).
 * `record()` numbers the frame, queues it and returns; once per tick the queue goes to the worker
 * in one message, and the worker redacts, derives, writes and retains there. Nothing on the path
 * from a client's bytes to the upstream and back waits for parsing, deriving or SQLite.
 *
 * Bounded: frames handed over and not yet committed are counted (frames and raw text). When a new
 * frame would pass either bound, the tap keeps forwarding and the frame is not recorded: it is
 * counted as dropped (`status()`, `GET /api/capture`, the dashboard's top bar), never silently.
 * If the worker dies, capture stops the same way: forwarding goes on, every later frame counted.
 *
 * Durability window: a frame is committed by the worker's next tick after this thread's tick that
 * recorded it (two turns of two event loops, usually well under a millisecond; longer while the
 * worker writes a large body or warms up after a restart). Listeners (the hub, so the dashboard)
 * hear of a frame only from the worker's batch, sent after its commit: a frame the dashboard has
 * shown is committed, and kill -9 loses at most the frames still in that window.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { CaptureStatus, DoorRecord, FrameInput } from '@mcpscope/protocol';
import type { BatchListener, CaptureBatch } from './capture-pipeline.js';
import { relinked } from './capture-pipeline.js';
import type { CaptureSink } from './capture-sink.js';
import type { CaptureStore } from './capture-store.js';
import type { CaptureWorkerData, FromWorker, ReplayLink, ToWorker } from './capture-worker.js';
import type { RetentionLimits } from './retention.js';

export interface CaptureQueueLimits {
  /** Frames handed to the worker and not yet committed. */
  frames: number;
  /** Their raw text, in UTF-16 code units (a 50 MB ASCII body is 50 M). */
  chars: number;
}

export const DEFAULT_QUEUE_LIMITS: CaptureQueueLimits = { frames: 50_000, chars: 256 * 1024 * 1024 };

/** How long `flush()` and `close()` block for the worker (a warm-up replay of a big file first). */
const SYNC_WAIT_MS = 60_000;

/**
 * How to start the worker: its built file beside this one; the release bundle itself (one file,
 * whose entry runs the worker's side when started as this worker); or, from source (tests, tsx),
 * a bootstrap that registers tsx in the worker and then loads the TypeScript, with workspace
 * packages from their source.
 */
function workerStart(): { script: string | URL; eval?: boolean; execArgv?: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsxApi = join(dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/api/index.mjs');
    const worker = new URL('./capture-worker.ts', here).href;
    const script = `import(${JSON.stringify(pathToFileURL(tsxApi).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); })`;
    // tsx is registered by the bootstrap (a parent's `--import tsx` does not reach a worker's script).
    const execArgv: string[] = [];
    for (let i = 0; i < process.execArgv.length; i++) {
      const arg = process.execArgv[i]!;
      if ((arg === '--import' || arg === '--require' || arg === '-r') && process.execArgv[i + 1]?.includes('tsx')) i++;
      else if (!arg.includes('tsx')) execArgv.push(arg);
    }
    if (!execArgv.some((a) => a.includes('mcpscope-source'))) execArgv.push('--conditions=mcpscope-source');
    return { script, eval: true, execArgv };
  }
  const sibling = new URL('./capture-worker.js', here);
  return { script: existsSync(sibling) ? sibling : new URL(here) };
}

export class CaptureWorkerPipeline implements CaptureSink {
  private readonly worker: Worker;
  /** The worker's `ready` and batches; drained synchronously after a flush, so listeners hear of it before flush() returns. */
  private readonly port: MessagePort;
  private readonly sync = new Int32Array(new SharedArrayBuffer(4));
  private token = 0;
  private seq: number;
  private doorId: number;
  private head: number;
  private rev: number;
  private pending: (FrameInput & { seq: number })[] = [];
  private pendingDoors = new Map<number, DoorRecord>();
  private pendingLinks: ReplayLink[] = [];
  private scheduled = false;
  private closed = false;
  private failure: string | undefined;
  /** [seq, chars] of every frame handed over and not yet committed, oldest first (from `first`). */
  private readonly inFlight: [number, number][] = [];
  private first = 0;
  private queuedChars = 0;
  private readonly dropped = { frames: 0, chars: 0 };
  private readonly listeners = new Set<BatchListener>();
  private waiters: { seq: number; resolve: () => void }[] = [];
  private readonly started: Promise<void>;

  constructor(
    private readonly store: CaptureStore,
    limits: RetentionLimits = {},
    private readonly queueLimits: CaptureQueueLimits = DEFAULT_QUEUE_LIMITS,
  ) {
    this.seq = this.head = store.head();
    ({ id: this.doorId, rev: this.rev } = store.door.heads());
    const start = workerStart();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const workerData: CaptureWorkerData = { role: 'mcpscope-capture', file: store.file, limits, sync: this.sync.buffer as SharedArrayBuffer, out: port2 };
    this.worker = new Worker(start.script, { workerData, transferList: [port2], ...(start.eval ? { eval: true } : {}), ...(start.execArgv ? { execArgv: start.execArgv } : {}) });
    let started = false;
    this.started = new Promise((resolve, reject) => {
      this.port.on('message', (message: FromWorker) => {
        if (message.type === 'batch') return this.onDelivered(message.batch);
        started = true;
        // Shutdown goes through close(); a process that ends without it is not kept alive for
        // capture. (Until now the worker was all that kept this one waiting for it.)
        this.worker.unref();
        this.port.unref();
        resolve();
      });
      // Before it started, capture cannot start at all: mcpscope says so and stops. After, capture
      // stops and forwarding must not: every later frame is counted as dropped.
      this.worker.on('error', (err) => (started ? this.fail(`the capture worker failed: ${err.message}`) : reject(err)));
      this.worker.on('exit', (code) => {
        if (!started) reject(new Error(`the capture worker exited before it started (code ${code})`));
        else if (!this.closed) this.fail(`the capture worker exited (code ${code})`);
      });
    });
    this.started.catch(() => (this.failure ??= 'the capture worker did not start'));
  }

  ready(): Promise<void> {
    return this.started;
  }

  record(input: FrameInput): number {
    if (this.closed) return -1;
    const chars = input.raw.length;
    if (this.failure || this.inFlight.length - this.first >= this.queueLimits.frames || this.queuedChars + chars > this.queueLimits.chars) {
      this.dropped.frames++;
      this.dropped.chars += chars;
      return -1;
    }
    return this.take(input, chars);
  }

  private take(input: FrameInput, chars: number): number {
    const seq = ++this.seq;
    this.pending.push({ ...input, seq });
    this.inFlight.push([seq, chars]);
    this.queuedChars += chars;
    this.schedule();
    return seq;
  }

  nextDoorId(): number {
    return ++this.doorId;
  }

  link(exchangeId: string, replayOf: string, mode: string, ts: number): void {
    // This thread reads links from memory; the worker writes the row and annotates summaries.
    this.store.replayLinks.remember(exchangeId, replayOf, mode);
    this.pendingLinks.push({ exchangeId, replayOf, mode, ts });
    this.schedule();
  }

  get requestsRev(): number {
    return this.rev;
  }

  doorChanged(record: DoorRecord): void {
    if (this.closed || this.failure) return;
    this.pendingDoors.set(record.id, record);
    this.schedule();
  }

  onBatch(listener: BatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  delivered(): { head: number; rev: number } {
    return { head: this.head, rev: this.rev };
  }

  stored(): Promise<void> {
    if (this.head >= this.seq || this.failure || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq: this.seq, resolve }));
  }

  /** As CapturePipeline.import: door records under new ids, frames re-linked, all committed on return. */
  import(frames: readonly FrameInput[], requests: readonly DoorRecord[] = [], originalSeqs: readonly number[] = []): void {
    const idOf = new Map(requests.map((r) => [r.id, this.nextDoorId()]));
    const seqOf = new Map<number, number>();
    frames.forEach((frame, i) => {
      // An import is the user's own file, asked for: not subject to the live queue's bound.
      const seq = this.closed || this.failure ? -1 : this.take(relinked(frame, idOf), frame.raw.length);
      if (originalSeqs[i] !== undefined) seqOf.set(originalSeqs[i]!, seq);
    });
    for (const r of requests) {
      const record: DoorRecord = { ...r, id: idOf.get(r.id)!, rev: 0 };
      if (r.frameSeqs) record.frameSeqs = r.frameSeqs.map((s) => seqOf.get(s)).filter((seq): seq is number => seq !== undefined && seq >= 0);
      this.doorChanged(record);
    }
    this.flush();
  }

  flush(): void {
    this.syncWith((token) => ({ type: 'flush', token, everything: false }));
  }

  close(): void {
    if (this.closed) return;
    this.syncWith((token) => ({ type: 'close', token }));
    this.closed = true;
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
  }

  status(): CaptureStatus {
    return {
      thread: 'worker',
      queued: { frames: this.inFlight.length - this.first, chars: this.queuedChars },
      dropped: { ...this.dropped },
      limits: { ...this.queueLimits },
      ...(this.failure ? { failed: this.failure } : {}),
    };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.post());
  }

  /** Hands this tick's frames and door records to the worker, in one message. */
  private post(): void {
    this.scheduled = false;
    if (this.failure || (this.pending.length === 0 && this.pendingDoors.size === 0 && this.pendingLinks.length === 0)) return;
    const message: ToWorker = { type: 'take', frames: this.pending, doors: [...this.pendingDoors.values()], links: this.pendingLinks };
    this.pending = [];
    this.pendingDoors = new Map();
    this.pendingLinks = [];
    this.worker.postMessage(message);
  }

  /** Posts what is queued and a `flush`/`close`, then blocks until the worker has done it (bounded). */
  private syncWith(message: (token: number) => ToWorker): void {
    if (this.failure) return;
    this.post();
    const token = ++this.token;
    this.worker.postMessage(message(token));
    const end = performance.now() + SYNC_WAIT_MS;
    // Blocking on purpose: shutdown and imports promise that what was recorded is committed.
    while (Atomics.load(this.sync, 0) < token && !this.failure) {
      const left = end - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.sync, 0, Atomics.load(this.sync, 0), Math.min(left, 100));
    }
    // The batches it sent are already queued here: deliver them now, as the in-thread pipeline does.
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
      const message = m.message as FromWorker;
      if (message.type === 'batch') this.onDelivered(message.batch);
    }
  }

  private onDelivered(batch: CaptureBatch): void {
    this.head = Math.max(this.head, batch.head);
    this.rev = Math.max(this.rev, batch.requestsRev);
    while (this.first < this.inFlight.length && this.inFlight[this.first]![0] <= this.head) this.queuedChars -= this.inFlight[this.first++]![1];
    if (this.first > 1024 && this.first * 2 > this.inFlight.length) {
      this.inFlight.splice(0, this.first);
      this.first = 0;
    }
    for (const listener of this.listeners) listener(batch);
    if (this.waiters.length > 0) {
      const ready = this.waiters.filter((w) => w.seq <= this.head);
      this.waiters = this.waiters.filter((w) => w.seq > this.head);
      for (const w of ready) w.resolve();
    }
  }

  private fail(why: string): void {
    if (this.failure) return;
    this.failure = why;
    // What was queued will not be committed: count it with what is dropped from now on.
    const lost = this.inFlight.slice(this.first);
    this.dropped.frames += lost.length;
    for (const [, chars] of lost) this.dropped.chars += chars;
    this.inFlight.length = 0;
    this.first = 0;
    this.queuedChars = 0;
    this.pending = [];
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    console.error(`mcpscope: ${why}; forwarding continues, nothing more is recorded`);
  }
}
