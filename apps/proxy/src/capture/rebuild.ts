/**
 * Rebuild: empty the derived tables and compute them again from the frames, with the same
 * deriver live capture uses (and the derived column of door records from the records), and drop
 * the templates no row names any more. `mcpscope rebuild --db FILE` runs it (after an upgrade that derives
 * more, or to check a capture). One transaction: an interrupted rebuild leaves the file as it was.
 * The stored deriver snapshot is never read here (frames alone), and is replaced by the rebuild's.
 */
import { createDeriver } from './deriver.js';
import type { CaptureStore } from './capture-store.js';
import { rederiveInto, saveSnapshot } from './capture-engine.js';
import { DERIVED_TABLES } from './migrations.js';
import { collectUnreferencedTemplates } from './templates.js';

export interface RebuildResult {
  frames: number;
  exchanges: number;
  sessions: number;
  diagnostics: number;
  conversations: number;
}

export function rebuildDerived(store: CaptureStore): RebuildResult {
  const db = store.db;
  let frames = 0;
  db.transaction(() => {
    for (const table of DERIVED_TABLES) db.exec(`DELETE FROM ${table}`);
    const deriver = createDeriver();
    frames = rederiveInto(store, deriver, (page, derived) => store.writeDerived(derived, page[0]!.seq));
    // The snapshot a later capture continues from must match the rows just rebuilt.
    saveSnapshot(store, deriver, store.head());
    // Door records are evidence; only what is computed from them is recomputed.
    store.door.rederive();
    // Templates only rows retention removed named (templates.ts).
    collectUnreferencedTemplates(db);
  })();
  const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const conversations = (db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE members > 0').get() as { n: number }).n;
  return { frames, exchanges: count('exchanges'), sessions: count('sessions'), diagnostics: count('diagnostics'), conversations };
}
