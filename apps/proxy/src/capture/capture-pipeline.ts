/**
 * Where captured frames go: the tap hands frames to `record()`, which returns at once (the
 * forwarding path never waits for disk). Once per tick the pipeline assigns nothing new, derives
 * exchanges and sessions, writes everything in one transaction, and only then tells listeners,
 * so a frame is never broadcast before it is stored.
 */
import { CaptureDeriver, type Diagnostic, type ExchangeSummary, type Frame, type FrameInput, type SessionSummary } from '@mcpscope/protocol';
import type { CaptureStore } from './capture-store.js';

export interface CaptureBatch {
  frames: Frame[];
  exchanges: ExchangeSummary[];
  sessions: SessionSummary[];
  diagnostics: Diagnostic[];
  head: number;
}

export type BatchListener = (batch: CaptureBatch) => void;

export class CapturePipeline {
  private seq: number;
  private queue: Frame[] = [];
  private scheduled = false;
  private closed = false;
  private readonly listeners = new Set<BatchListener>();
  private readonly deriver = new CaptureDeriver();

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
    const diagnostics: Diagnostic[] = [];
    for (const frame of frames) {
      const derived = this.deriver.ingest(frame);
      for (const ex of derived.exchanges) exchanges.set(ex.id, ex);
      for (const s of derived.sessions) sessions.set(s.sessionKey, s);
      diagnostics.push(...derived.diagnostics);
    }
    const batch: CaptureBatch = {
      frames,
      exchanges: [...exchanges.values()],
      sessions: [...sessions.values()],
      diagnostics,
      head: frames[frames.length - 1]!.seq,
    };
    this.store.write(batch.frames, batch.exchanges, batch.sessions);
    for (const listener of this.listeners) listener(batch);
  }
}
