/**
 * The capture engine's port: how the pipeline (on the tap's thread) hands a tick to the engine
 * (capture-engine.ts) and hears its outcome, whichever of the two implementations serves it,
 * chosen when a capture opens: in process (in-process-engine.ts: `:memory:`, `mcpscope open`,
 * tests) or on one worker thread (worker-engine.ts: a capture file; engine-supervisor.ts replaces
 * a worker that dies). The worker's messages (`EngineRequest`, `EngineAnswer`) are this same
 * contract on the wire.
 *
 * Invariants every implementation keeps: one tick at a time (the pipeline sends the next only
 * after `done` ran); `done` runs exactly once per call, even when the worker dies under it (the
 * replacement's outcome is the call's); a tick is committed whole or not at all; listeners are
 * told only after `done` says it committed.
 */
import type { DoorRecord, Frame, Message } from '@mcpscope/protocol';
import type { DerivedBatch } from './capture-engine.js';
import type { ReplayLink } from './replay-links.js';
import type { TickTexts } from './tick-ops.js';

/** What one tick stores: the frames and door records gathered since the last. */
export interface TickWork {
  frames: Frame[];
  /** The door records (every HTTP request at the tap) to write, each at its latest state. */
  requests: DoorRecord[];
  /** What the stored large frames among `frames` read as (from their skeletons). */
  largeMessages: WeakMap<Frame, Message>;
}

/** An error as it crosses a thread: its SQLite code kept (capture-health.ts `storageProblem` reads it). */
export interface EngineFailure {
  message: string;
  code?: string;
  errcode?: number;
}

/** A tick's (or a retry's) outcome. */
export type TickOutcome =
  | {
      ok: true;
      /** The JSON texts stored, which the live hub sends as they are. */
      texts: TickTexts;
      /** The derived objects, when the engine runs in this process (saves parsing the texts). */
      derived?: DerivedBatch;
      /** What went wrong on the way without stopping the write (a deriver error, derived rows refused). */
      noted?: EngineFailure[];
    }
  | {
      ok: false;
      failure: Error;
      /** The storage refused the write (disk full, read-only): the engine keeps it, as it was made, for `retry`. */
      keptForRetry?: true;
      noted?: EngineFailure[];
    };

export type TickDone = (outcome: TickOutcome) => void;

export interface EnginePort {
  /** Derives, encodes and writes one tick; `done` runs once, now or from a later turn of the event loop. */
  tick(work: TickWork, done: TickDone): void;
  /**
   * A tick an engine that died had committed: derived and encoded for its texts, not written
   * again. The engine must have been warmed through the seq before the tick's first frame.
   */
  tickCommitted(work: TickWork, done: TickDone): void;
  /**
   * Writes again `work`, a write the storage refused (`keptForRetry`): as this engine kept it, or,
   * when another engine refused it (this one replaced a worker that died), derived and written anew.
   */
  retry(work: TickWork, done: TickDone): void;
  /** Whether ticks can be taken now (a worker is up), else they wait for `settle()` or the `onReady` callback. */
  readonly ready: boolean;
  /** The id of the worker thread ticks are written on (as the worker reports it), undefined in process. */
  readonly threadId: number | undefined;
  /** Blocks (bounded) until the engine is up and the tick under way, if any, has delivered its outcome. */
  settle(): void;
  /** Stores the deriver's snapshot (when `snapshot`), closes the engine's connection, and ends it. */
  close(snapshot: boolean): void;
}

/** What the engine's worker is started with. */
export interface EngineWorkerData {
  file: string;
  /** How long its connection waits for another connection's lock. */
  busyMs: number;
  autocheckpoint: number;
  /** How often it checkpoints the WAL (PASSIVE), between ticks. */
  checkpointMs: number;
  /** Warm the deriver through this seq only (the frames after it are a tick the worker is given next). */
  through?: number;
}

/** The port's messages to the worker. */
export type EngineRequest =
  | {
      type: 'tick';
      id: number;
      /** worker-engine.ts `flattenFrames`. */
      frames: unknown[];
      /** Door records as their rows (tick-ops.ts `doorRows`), stored as they are. */
      doorRows: unknown[];
      /** Large frames' messages by index in `frames`. */
      messages: [number, Message][];
      /** Replay links made on the tap's thread since the last tick. */
      links: ReplayLink[];
      /** The tick is already in the store (an engine that died committed it): derive it for its texts only. */
      committed?: true;
    }
  | { type: 'retry'; id: number }
  | { type: 'snapshot'; id: number }
  | { type: 'stop' };

/** The worker's answers: `id` 0 says it is up (or could not start), -1 that it stopped. */
export interface EngineAnswer {
  id: number;
  ready?: true;
  /** With `ready`: the worker's thread id. */
  thread?: number;
  ok?: boolean;
  texts?: TickTexts;
  error?: EngineFailure;
  keptForRetry?: true;
  noted?: EngineFailure[];
}

/** What the large-frame writer's worker (large-writer-worker.ts) is started with. */
export interface LargeWriterData {
  file: string;
  /** How long its connection waits for another connection's lock. */
  busyMs: number;
  /** Characters of a large frame's text stored in its row (the head); the rest goes in pieces. */
  headChars: number;
  /** Characters per stored piece (migration 8: `frame_parts`). */
  partChars: number;
  /** The thread's CPU priority (Linux nice). */
  nice: number;
}

/** The large-frame writer's messages: a body's bytes as they stream, then its write (or its drop). */
export type LargeRequest =
  | { type: 'block'; id: number; block: Uint8Array }
  | { type: 'drop'; id: number }
  /** Stores body `id` as frame `seq`'s pieces: every earlier frame is committed. */
  | { type: 'write'; id: number; seq: number }
  | { type: 'stop' };

/** The writer's answer for one body; `id` -1 says it stopped. */
export type LargeAnswer =
  | { id: number; kind: 'stored'; chars: number; bytes: number; head: string; pieces: number; skeleton: string }
  /** The tap's thread must handle it (a secret's name in it, or no skeleton): the text, decoded. */
  | { id: number; kind: 'returned'; text: string }
  | { id: number; kind: 'failed'; error: EngineFailure };

/** An error as the engine sends it. */
export function engineFailure(err: unknown): EngineFailure {
  const e = err as { message?: unknown; code?: unknown; errcode?: unknown } | undefined;
  return { message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined, errcode: typeof e?.errcode === 'number' ? e.errcode : undefined };
}

/** A failure as the engine sent it, as an Error with its SQLite code. */
export function failureError(failure: EngineFailure): Error {
  return Object.assign(new Error(failure.message), failure);
}
