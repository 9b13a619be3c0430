/**
 * Builders for the store tests: temporary capture files and table snapshots (a child mcpscope on
 * a file: support/mcpscope.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export function tempDbFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpscope-store-')), 'capture.db');
}

/** Every row of the derived tables, in key order, for comparing two states of a capture file. */
export function snapshotDerived(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return {
      exchanges: db.prepare('SELECT * FROM exchanges ORDER BY id').all(),
      sessions: db.prepare('SELECT * FROM sessions ORDER BY session_key').all(),
      diagnostics: db.prepare('SELECT * FROM diagnostics ORDER BY id').all(),
      frame_exchanges: db.prepare('SELECT * FROM frame_exchanges ORDER BY frame_seq, exchange_id').all(),
    };
  } finally {
    db.close();
  }
}
