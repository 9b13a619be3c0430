/**
 * Marks in the capture file (table `marks`, migration 7): labelled lines in the timeline, and
 * where capture was paused and resumed from the dashboard. Few (each is a click), written one at a
 * time outside the pipeline's tick, read whole by the API and exports. A file from before
 * migration 7, opened read-only, has none.
 */
import type { CaptureMark } from '@mcpscope/protocol';
import type { SqliteDatabase } from './sqlite.js';

interface MarkRow {
  id: number;
  ts: number;
  after_seq: number;
  kind: CaptureMark['kind'];
  label: string;
}

/** Longest label kept; a mark is a line in a table, not a note. */
export const MARK_LABEL_MAX = 200;

export class MarksTable {
  private readonly present: boolean;

  constructor(private readonly db: SqliteDatabase) {
    this.present = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'marks'").get() !== undefined;
  }

  /** Every mark, oldest first. */
  list(): CaptureMark[] {
    if (!this.present) return [];
    const rows = this.db.prepare('SELECT id, ts, after_seq, kind, label FROM marks ORDER BY after_seq, id').all() as MarkRow[];
    return rows.map((r) => ({ id: r.id, ts: r.ts, afterSeq: r.after_seq, kind: r.kind, label: r.label }));
  }

  add(mark: Omit<CaptureMark, 'id'>): CaptureMark {
    const label = mark.label.slice(0, MARK_LABEL_MAX);
    const result = this.db.prepare('INSERT INTO marks (ts, after_seq, kind, label) VALUES (?, ?, ?, ?)').run(mark.ts, mark.afterSeq, mark.kind, label);
    return { ...mark, label, id: Number(result.lastInsertRowid) };
  }
}
