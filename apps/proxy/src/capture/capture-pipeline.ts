/**
 * Where captured frames go: the tap hands frames to `record()`, which returns at once (the
 * forwarding path never waits for disk). Once per tick the pipeline assigns nothing new, derives
 * exchanges and sessions, writes everything in one transaction, and only then tells listeners,
 * so a frame is never broadcast before it is stored.
 */
import {
  classifyText,
  ExchangeTracker,
  SessionTracker,
  type ExchangeSummary,
  type Frame,
  type FrameInput,
  type SessionSummary,
} from '@mcpscope/protocol';
import type { CaptureStore } from './capture-store.js';

export interface CaptureBatch {
  frames: Frame[];
  exchanges: ExchangeSummary[];
  sessions: SessionSummary[];
  head: number;
}

export type BatchListener = (batch: CaptureBatch) => void;

export class CapturePipeline {
  private seq: number;
  private queue: Frame[] = [];
  private scheduled = false;
  private closed = false;
  private readonly listeners = new Set<BatchListener>();
  private readonly exchanges = new ExchangeTracker();
  private readonly sessions = new SessionTracker();

  constructor(private readonly store: CaptureStore) {
    this.seq = store.head();
  }

  /** Queues a frame; it is stored within the current tick. Returns its seq. */
  record(input: FrameInput): number {
    // After shutdown, streams that are still unwinding have nowhere to go.
    if (this.closed) return -1;
    const frame: Frame = { ...input, seq: ++this.seq };
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
    const exchanges = new Map<string, ExchangeSummary>();
    const sessions = new Map<string, SessionSummary>();
    for (const frame of frames) {
      const message = classifyText(frame.raw);
      if (frame.kind === 'data') {
        const s = this.sessions.ingestFrame(frame, message);
        sessions.set(s.sessionKey, s);
      }
      const updates = this.exchanges.ingest(frame, message);
      for (const ex of updates) exchanges.set(ex.id, ex);
      for (const s of this.sessions.ingestExchanges(updates)) sessions.set(s.sessionKey, s);
    }
    const batch: CaptureBatch = {
      frames,
      exchanges: [...exchanges.values()],
      sessions: [...sessions.values()].map((s) => ({ ...s, counts: { ...s.counts } })),
      head: frames[frames.length - 1]!.seq,
    };
    this.store.write(batch.frames, batch.exchanges, batch.sessions);
    for (const listener of this.listeners) listener(batch);
  }
}
