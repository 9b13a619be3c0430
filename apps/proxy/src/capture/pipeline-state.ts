/**
 * What the capture pipeline (capture-pipeline.ts) is doing with the store, one thing at a time.
 * Frames keep queuing on the tap's thread in every state but `closed` (and `paused`, where they
 * are counted as not recorded); only `idle` lets a tick start.
 *
 *   idle ──tick──▶ writing ──committed──▶ idle
 *    │               ├──committed, a large frame next──▶ writingLarge
 *    │               └──the store refused (disk full, read-only)──▶ paused
 *    └──a large frame first in the queue──▶ writingLarge ──writer done──▶ idle
 *   paused ──retry (every RETRY_MS)──▶ paused { retrying } ──taken, or refused for another reason──▶ idle
 *   any ──close()──▶ closed (final)
 *
 * The user's pause from the dashboard is not a state here: the pipeline goes on writing what was
 * queued, and `record()` counts new frames instead of queuing them (capture-health.ts).
 */
import type { Frame } from '@mcpscope/protocol';
import type { TickWork } from './engine-contract.js';

export type PipelineState =
  /** Nothing is with the engine or the large-frame writer: the next tick may start. */
  | { kind: 'idle' }
  /** One tick is with the engine; the next waits for its outcome. */
  | { kind: 'writing' }
  /** The queue's first frame is with the large-frame writer; every frame after it waits. */
  | { kind: 'writingLarge'; frame: Frame }
  /**
   * The store refused a write for where it lives (`reason`); nothing is queued, and the refused
   * write (the engine keeps it as it was made) is retried every RETRY_MS (`retrying` while a retry
   * is with the engine: refused-write-retry.ts).
   */
  | { kind: 'paused'; refused: TickWork; reason: string; error: unknown; retrying: boolean }
  /** Nothing more is accepted; a late outcome is told to listeners but changes nothing here. */
  | { kind: 'closed' };
