/**
 * Rebuild: empty the derived tables and compute them again from the frames, with the same
 * deriver live capture uses. `mcpscope rebuild --db FILE` runs it (after an upgrade that derives
 * more, or to check a capture). One transaction: an interrupted rebuild leaves the file as it was.
 */
import { createDeriver } from './deriver.js';
import type { CaptureStore } from './capture-store.js';
import { replayInto } from './capture-pipeline.js';
import { DERIVED_TABLES } from './migrations.js';

export interface RebuildResult {
  frames: number;
  exchanges: number;
  sessions: number;
  diagnostics: number;
}

export function rebuildDerived(store: CaptureStore): RebuildResult {
  const db = store.db;
  let frames = 0;
  db.transaction(() => {
    for (const table of DERIVED_TABLES) db.exec(`DELETE FROM ${table}`);
    frames = replayInto(store, createDeriver(), (_frames, derived) => store.writeDerived(derived));
  })();
  const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { frames, exchanges: count('exchanges'), sessions: count('sessions'), diagnostics: count('diagnostics') };
}
