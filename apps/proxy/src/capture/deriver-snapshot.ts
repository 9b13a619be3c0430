/**
 * Warm start: the pipeline keeps a snapshot of its deriver in the store (every SNAPSHOT_EVERY
 * frames and on close), so opening a capture restores the deriver and replays only the frames
 * after the snapshot, instead of every stored frame (about 20 s for a million frames).
 *
 * Correctness first: a snapshot is used only when it is of this deriver's version, covers no
 * frame the store lacks, and leaves no stored frame after it unreplayed; anything else (no
 * snapshot, an older format, a parse or restore failure, retention having removed frames the
 * snapshot did not cover) falls back to replaying every stored frame, as before snapshots.
 * After kill -9 the last periodic snapshot is still valid: it is older, so more frames replay.
 */
import { DERIVER_STATE_VERSION, type CaptureDeriver } from '@mcpscope/protocol';
import type { CaptureReader } from './capture-reader.js';
import { createDeriver, restoreDeriver } from './deriver.js';
import { rederiveInto } from './rederive.js';

/** Frames between periodic snapshots: what a restart after kill -9 replays at most. */
export const SNAPSHOT_EVERY = 50_000;

/**
 * A deriver that has seen every stored frame; `replayed` is how many frames that took, `through`
 * the last frame it has seen (frames committed meanwhile by another connection come after it).
 * With `until`, frames after that seq are left unseen.
 */
export function warmDeriver(store: CaptureReader, until = Number.MAX_SAFE_INTEGER): { deriver: CaptureDeriver; replayed: number; through: number; restoredAt?: number } {
  const restored = restore(store, until);
  const deriver = restored?.deriver ?? createDeriver();
  let through = restored?.seq ?? 0;
  const replayed = rederiveInto(store, deriver, (frames) => (through = frames[frames.length - 1]!.seq), through, until);
  return { deriver, replayed, through, ...(restored ? { restoredAt: restored.seq } : {}) };
}

/** Stores `deriver`'s state as of frame `seq`, on the connection `store` reads through (the store's, or the engine worker's). */
export function saveSnapshot(store: CaptureReader, deriver: CaptureDeriver, seq: number): void {
  store.db
    .prepare('INSERT INTO deriver_snapshot (id, seq, version, state) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, version = excluded.version, state = excluded.state')
    .run(seq, DERIVER_STATE_VERSION, JSON.stringify(deriver.snapshot()));
}

function restore(store: CaptureReader, until: number): { deriver: CaptureDeriver; seq: number } | undefined {
  const row = store.deriverSnapshot();
  if (!row || row.version !== DERIVER_STATE_VERSION || row.seq > store.head() || row.seq > until) return undefined;
  // Frames after the snapshot that retention has already removed were never derived into it.
  const oldest = store.oldest();
  if (oldest !== 0 && oldest > row.seq + 1) return undefined;
  try {
    return { deriver: restoreDeriver(JSON.parse(row.state)), seq: row.seq };
  } catch {
    return undefined; // unreadable: replay instead
  }
}
