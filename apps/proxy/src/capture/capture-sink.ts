/**
 * What the tap, the door, replay, imports and the live hub see of capture, whichever thread does
 * the work: `CapturePipeline` records on the calling thread (in-memory stores, `mcpscope open`,
 * tests), `CaptureWorkerPipeline` hands frames to a worker thread that redacts, derives and writes
 * them (file-backed stores), so the forwarding thread never waits for any of it.
 */
import type { CaptureStatus, DoorRecord, FrameInput } from '@mcpscope/protocol';
import type { BatchListener } from './capture-pipeline.js';

export interface CaptureSink {
  /** Queues a frame and returns its seq at once; -1 when it is not recorded (capture off, closed, or dropped and counted). */
  record(input: FrameInput): number;
  /** The id for a new door record (arrival order, continuing the file's). */
  nextDoorId(): number;
  /** A door record was created or changed (in place): it is written soon, at its state then. */
  doorChanged(record: DoorRecord): void;
  /**
   * Links a replay (or a widget's call) to its original (replay-links.ts); call it right after
   * recording the request frame, before that frame is written, so its summary carries the link.
   */
  link(exchangeId: string, replayOf: string, mode: string, ts: number): void;
  /** The highest door-record `rev` delivered to listeners (the WebSocket's door cursor). */
  readonly requestsRev: number;
  /** Batches after they are committed, in order. */
  onBatch(listener: BatchListener): () => void;
  /**
   * The frame seq and door rev that listeners have been told about: everything up to them is
   * committed, and every later frame will arrive in a batch (the hub's catch-up stops here).
   */
  delivered(): { head: number; rev: number };
  /** Resolves once every frame recorded before the call is committed and its batch delivered. */
  stored(): Promise<void>;
  /** Records frames that arrive all at once (an import) and commits them before returning. */
  import(frames: readonly FrameInput[], requests?: readonly DoorRecord[], originalSeqs?: readonly number[]): void;
  /** Commits everything queued before returning (shutdown, tests). */
  flush(): void;
  /** Commits what is queued and accepts nothing more. */
  close(): void;
  status(): CaptureStatus;
  /**
   * Resolves once capture runs (the worker has opened the file and warmed its deriver up), so
   * mcpscope says it is ready only when what it forwards is also recorded; rejects when capture
   * cannot start at all.
   */
  ready(): Promise<void>;
}
