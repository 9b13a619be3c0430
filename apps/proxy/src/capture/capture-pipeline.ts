/**
 * Where captured frames go: the tap hands frames to `record()`, which returns at once (the
 * forwarding path never waits for disk). Once per tick the pipeline derives exchanges, sessions
 * and diagnostics, writes everything in one transaction, applies retention, and only then tells
 * listeners, so a frame is never broadcast before it is stored.
 *
 * Durability window: a frame handed to `record()` is committed before the next turn of the event
 * loop (setImmediate), i.e. within one tick of being forwarded.
 *
 * On open the pipeline replays the stored frames through a fresh deriver (without writing), so
 * capture that continues after a restart pairs and counts exactly as if it had never stopped.
 */
import { type CaptureDeriver, type Diagnostic, type ExchangeSummary, type Frame, type FrameInput, type SessionSummary } from '@mcpscope/protocol';
import { createDeriver } from './deriver.js';
import { isOAuthEndpoint, redactBodySecrets } from '../security/redact-body.js';
import type { CaptureStore } from './capture-store.js';
import { Retention, type RetentionLimits, type Trim } from './retention.js';

export interface CaptureBatch {
  frames: Frame[];
  exchanges: ExchangeSummary[];
  sessions: SessionSummary[];
  diagnostics: Diagnostic[];
  head: number;
  /** Set when retention removed old frames after this batch was written. */
  retention?: Trim;
}

export type BatchListener = (batch: CaptureBatch) => void;

/** Frames read per page when replaying the store (warm-up and rebuild). */
export const REPLAY_PAGE = 5000;

export class CapturePipeline {
  private seq: number;
  private queue: Frame[] = [];
  private scheduled = false;
  private closed = false;
  private readonly listeners = new Set<BatchListener>();
  private readonly deriver = createDeriver();
  readonly retention: Retention;

  constructor(
    private readonly store: CaptureStore,
    limits: RetentionLimits = {},
  ) {
    this.seq = store.head();
    replayInto(store, this.deriver, () => {});
    this.retention = new Retention(store, limits);
    this.retention.enforce();
  }

  /** Queues a frame; it is stored within the current tick. Returns its seq. */
  record(input: FrameInput): number {
    // After shutdown, streams that are still unwinding have nowhere to go.
    if (this.closed) return -1;
    // JSON on an MCP endpoint is MCP traffic, even when malformed: a string "code" there is a tool
    // argument or junk, never an OAuth code, and stays as sent. OAuth endpoints and form bodies
    // are read as OAuth traffic, where `code` is the authorization code.
    const mcp = !isOAuthEndpoint(input.http?.path) && /^\s*[[{]/.test(input.raw);
    const raw = redactBodySecrets(input.raw, mcp);
    const frame: Frame = { ...input, raw, seq: ++this.seq };
    this.queue.push(frame);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return frame.seq;
  }

  onBatch(listener: BatchListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get head(): number {
    return this.seq;
  }

  /** Writes what is queued and accepts nothing more. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  /** Writes everything queued. Called once per tick, and on shutdown. */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0 || this.closed) return;
    const frames = this.queue;
    this.queue = [];
    const batch: CaptureBatch = { ...derive(this.deriver, frames), frames, head: frames[frames.length - 1]!.seq };
    this.store.write(batch);
    const trim = this.retention.afterWrite(frames);
    if (trim) batch.retention = trim;
    for (const listener of this.listeners) listener(batch);
  }
}

/** Runs frames through the deriver, merging what changed (last state of each row wins). */
export function derive(deriver: CaptureDeriver, frames: readonly Frame[]): Omit<CaptureBatch, 'frames' | 'head'> {
  const exchanges = new Map<string, ExchangeSummary>();
  const sessions = new Map<string, SessionSummary>();
  const diagnostics: Diagnostic[] = [];
  for (const frame of frames) {
    const derived = deriver.ingest(frame);
    for (const ex of derived.exchanges) exchanges.set(ex.id, ex);
    for (const s of derived.sessions) sessions.set(s.sessionKey, s);
    for (const d of derived.diagnostics) diagnostics.push(d);
  }
  return { exchanges: [...exchanges.values()], sessions: [...sessions.values()], diagnostics };
}

/** Feeds every stored frame, in seq order and page by page, through `deriver`. */
export function replayInto(store: CaptureStore, deriver: CaptureDeriver, onPage: (frames: Frame[], derived: ReturnType<typeof derive>) => void): number {
  let after = 0;
  let total = 0;
  for (;;) {
    const frames = store.rawFramesAfter(after, REPLAY_PAGE);
    if (frames.length === 0) return total;
    onPage(frames, derive(deriver, frames));
    after = frames[frames.length - 1]!.seq;
    total += frames.length;
  }
}
