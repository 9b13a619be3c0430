/**
 * Where captured frames go: the tap hands frames to `record()`, which returns at once (the
 * forwarding path never waits for disk). Once per tick the pipeline derives exchanges, sessions
 * and diagnostics, writes everything in one transaction, applies retention, and only then tells
 * listeners, so a frame is never broadcast before it is stored.
 *
 * Durability window: a frame handed to `record()` is committed before the next turn of the event
 * loop (setImmediate), i.e. within one tick of being forwarded.
 *
 * Door records (every HTTP request at the tap) ride the same ticks: the tap's recorder changes a
 * record in place and calls `doorChanged`; a flush gives each changed record a new `rev` and
 * writes it in the same transaction as the tick's frames. A record whose answer is still under
 * way waits up to OPEN_RECORD_DELAY_MS before its first write, so the usual request (answered in
 * a few ms) is written once, whole, instead of at its start, its head and its end; a long stream
 * still shows within that delay, and shutdown writes everything.
 *
 * On open the pipeline restores its deriver from the stored snapshot and replays the frames after
 * it (or, without a usable snapshot, every stored frame) without writing, so capture that
 * continues after a restart pairs and counts exactly as if it had never stopped
 * (deriver-snapshot.ts).
 */
import type { CaptureDeriver, CaptureStatus, ConversationSummary, Diagnostic, DoorRecord, ExchangeSummary, Frame, FrameInput, FrameView, SessionSummary } from '@mcpscope/protocol';
import { SNAPSHOT_EVERY, saveSnapshot, warmDeriver } from './deriver-snapshot.js';
import { derive, type DerivedBatch } from './rederive.js';
import { isOAuthEndpoint, redactBodySecrets } from '../redaction/redact-body.js';
import type { CaptureStore } from './capture-store.js';
import { Retention, type RetentionLimits, type Trim } from './retention.js';
import type { CaptureSink } from './capture-sink.js';

export interface CaptureBatch {
  frames: Frame[];
  /**
   * The frames as the dashboard lists them (raw cut at FRAME_RAW_LIMIT), when they come from the
   * capture worker: it sends these instead of whole frames, so a 50 MB body is not copied back.
   */
  views?: FrameView[];
  exchanges: ExchangeSummary[];
  /** Each exchange as the JSON text the store wrote, in `exchanges` order (set once written). */
  exchangeJson?: string[];
  sessions: SessionSummary[];
  conversations: ConversationSummary[];
  diagnostics: Diagnostic[];
  head: number;
  /** Door records written this tick, with the JSON text stored (each at its latest state). */
  requests: { id: number; json: string }[];
  /** The highest door-record `rev` written so far. */
  requestsRev: number;
  /** Set when retention removed old frames after this batch was written. */
  retention?: Trim;
}

export type BatchListener = (batch: CaptureBatch) => void;

/** How long a door record whose answer is still under way waits for its first write. */
export const OPEN_RECORD_DELAY_MS = 1000;

export class CapturePipeline implements CaptureSink {
  private seq: number;
  private queue: Frame[] = [];
  private scheduled = false;
  private closed = false;
  private readonly listeners = new Set<BatchListener>();
  private readonly deriver: CaptureDeriver;
  /** Frames derived since the stored snapshot was taken. */
  private sinceSnapshot: number;
  readonly retention: Retention;
  /** Door records changed since the last flush, by id. */
  private doorQueue = new Map<number, DoorRecord>();
  /** Set while records still under way wait for their first write. */
  private doorTimer: NodeJS.Timeout | undefined;
  private doorId: number;
  private doorRev: number;

  constructor(
    private readonly store: CaptureStore,
    limits: RetentionLimits = {},
  ) {
    this.seq = store.head();
    const warm = warmDeriver(store);
    this.deriver = warm.deriver;
    this.sinceSnapshot = warm.replayed;
    this.retention = new Retention(store, limits);
    this.retention.enforce();
    ({ id: this.doorId, rev: this.doorRev } = store.door.heads());
  }

  /**
   * Queues a frame; it is stored within the current tick. Returns its seq: the next one, or `seq`
   * when the caller numbered it (the capture worker, whose frames were numbered by the tap's thread).
   */
  record(input: FrameInput, seq?: number): number {
    // After shutdown, streams that are still unwinding have nowhere to go.
    if (this.closed) return -1;
    // JSON on an MCP endpoint is MCP traffic, even when malformed: a string "code" there is a tool
    // argument or junk, never an OAuth code, and stays as sent. OAuth endpoints and form bodies
    // are read as OAuth traffic, where `code` is the authorization code.
    const mcp = !isOAuthEndpoint(input.http?.path) && /^\s*[[{]/.test(input.raw);
    const raw = redactBodySecrets(input.raw, mcp);
    this.seq = seq ?? this.seq + 1;
    const frame: Frame = { ...input, raw, seq: this.seq };
    this.queue.push(frame);
    this.schedule();
    return frame.seq;
  }

  link(exchangeId: string, replayOf: string, mode: string, ts: number): void {
    this.store.replayLinks.link(exchangeId, replayOf, mode, ts);
  }

  /** The id for a new door record (arrival order, continuing the file's). */
  nextDoorId(): number {
    return ++this.doorId;
  }

  /** The highest door-record `rev` written (the WebSocket's door cursor). */
  get requestsRev(): number {
    return this.doorRev;
  }

  /** A door record was created or changed (in place): it is written within the current tick. */
  doorChanged(record: DoorRecord): void {
    if (this.closed) return;
    this.doorQueue.set(record.id, record);
    this.schedule();
  }

  /** The queued door records to write now (see the header); the rest wait for the timer. */
  private readyDoorRecords(everything: boolean): DoorRecord[] {
    const ready: DoorRecord[] = [];
    const now = performance.timeOrigin + performance.now();
    for (const [id, r] of this.doorQueue) {
      if (!everything && r.end === 'open' && now - r.ts < OPEN_RECORD_DELAY_MS) continue;
      ready.push(r);
      this.doorQueue.delete(id);
    }
    if (this.doorQueue.size > 0 && !this.doorTimer) {
      this.doorTimer = setTimeout(() => {
        this.doorTimer = undefined;
        this.flush();
      }, OPEN_RECORD_DELAY_MS);
      this.doorTimer.unref();
    }
    return ready;
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /**
   * Records frames that arrive all at once (an import) and stores them now, in one batch, with the
   * door records that came with them, under new ids: their frames re-linked from the file's seqs
   * (`originalSeqs[i]` is `frames[i]`'s), and the frames' `requestId` from the file's record ids.
   */
  import(frames: readonly FrameInput[], requests: readonly DoorRecord[] = [], originalSeqs: readonly number[] = []): void {
    const idOf = this.doorIds(requests);
    const seqOf = new Map<number, number>();
    frames.forEach((frame, i) => {
      const seq = this.record(relinked(frame, idOf));
      if (originalSeqs[i] !== undefined) seqOf.set(originalSeqs[i]!, seq);
    });
    this.importRequests(requests, (original) => seqOf.get(original), idOf);
    this.flush();
  }

  /** New ids for door records read from a file, by their id there. */
  doorIds(requests: readonly DoorRecord[]): Map<number, number> {
    return new Map(requests.map((r) => [r.id, this.nextDoorId()]));
  }

  /** Door records read from a file, stored under the ids `idOf` gave them; frames re-linked by `seqOf`. */
  importRequests(requests: readonly DoorRecord[], seqOf: (original: number) => number | undefined, idOf = this.doorIds(requests)): void {
    for (const r of requests) {
      const record: DoorRecord = { ...r, id: idOf.get(r.id)!, rev: 0 };
      if (r.frameSeqs) record.frameSeqs = r.frameSeqs.map(seqOf).filter((seq): seq is number => seq !== undefined);
      this.doorChanged(record);
    }
  }

  onBatch(listener: BatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get head(): number {
    return this.seq;
  }

  /** Listeners hear of a batch as soon as it is committed: what is committed is what they know. */
  delivered(): { head: number; rev: number } {
    return { head: this.store.head(), rev: this.store.door.heads().rev };
  }

  /** The flush for frames recorded so far is a setImmediate queued before this one. */
  stored(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  /** Opened and warmed up in the constructor. */
  ready(): Promise<void> {
    return Promise.resolve();
  }

  status(): CaptureStatus {
    let chars = 0;
    for (const f of this.queue) chars += f.raw.length;
    return { thread: 'main', queued: { frames: this.queue.length, chars }, dropped: { frames: 0, chars: 0 } };
  }

  /** Writes what is queued, and the deriver's snapshot, and accepts nothing more. */
  close(): void {
    if (this.doorTimer) clearTimeout(this.doorTimer);
    this.flush(true);
    if (!this.closed && this.store.db.open) saveSnapshot(this.store, this.deriver, this.seq);
    this.closed = true;
  }

  /** Writes everything queued. Called once per tick, and on shutdown. */
  flush(everything = false): void {
    this.scheduled = false;
    if ((this.queue.length === 0 && this.doorQueue.size === 0) || this.closed) return;
    const requests = this.readyDoorRecords(everything);
    if (this.queue.length === 0 && requests.length === 0) return;
    const frames = this.queue;
    this.queue = [];
    for (const r of requests) r.rev = ++this.doorRev;
    const derived: DerivedBatch = frames.length > 0 ? derive(this.deriver, frames) : { exchanges: [], sessions: [], diagnostics: [], conversations: [] };
    const written = this.store.write({ ...derived, frames, requests });
    const batch: CaptureBatch = { ...derived, frames, head: this.seq, exchangeJson: written.exchanges, requests: requests.map((r, i) => ({ id: r.id, json: written.requests[i]! })), requestsRev: this.doorRev };
    const trim = this.retention.afterWrite(frames, requests.length);
    if (trim) batch.retention = trim;
    this.sinceSnapshot += frames.length;
    if (this.sinceSnapshot >= SNAPSHOT_EVERY) {
      saveSnapshot(this.store, this.deriver, batch.head);
      this.sinceSnapshot = 0;
    }
    for (const listener of this.listeners) listener(batch);
  }
}

/** A frame with its `http.requestId` moved to the imported record's new id (or dropped: none came). */
export function relinked(frame: FrameInput, idOf: ReadonlyMap<number, number>): FrameInput {
  const requestId = frame.http?.requestId;
  if (requestId === undefined) return frame;
  const { requestId: _old, ...http } = frame.http!;
  const id = idOf.get(requestId);
  return { ...frame, http: id === undefined ? http : { ...http, requestId: id } };
}
