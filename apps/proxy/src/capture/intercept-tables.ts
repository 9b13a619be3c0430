/**
 * Intercept rules and interventions in the capture file (tables `intercept_rules` and
 * `interventions`, migration 11). Few rows (a rule is typed by a person; an intervention happens
 * when a rule acts), written one at a time outside the pipeline's tick. A file from before
 * migration 11, opened read-only, has none.
 */
import type { Intervention, Reaction, StoredRule } from '@mcpscope/protocol';
import type { SqliteDatabase } from './sqlite.js';

interface InterventionRow {
  id: number;
  ts: number;
  rule_id: string;
  rule_text: string;
  action: string;
  session_key: string;
  request_seq: number;
  delivered_seq: number;
  original: string | null;
  note: string;
  reaction: string | null;
}

export class InterceptTables {
  private readonly present: boolean;

  constructor(private readonly db: SqliteDatabase) {
    this.present = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'interventions'").get() !== undefined;
  }

  rules(): StoredRule[] {
    if (!this.present) return [];
    const rows = this.db.prepare('SELECT id, text, enabled, hits FROM intercept_rules ORDER BY rowid').all() as { id: string; text: string; enabled: number; hits: number }[];
    return rows.map((r) => ({ id: r.id, text: r.text, enabled: r.enabled === 1, hits: r.hits }));
  }

  saveRule(rule: StoredRule): void {
    this.db.prepare('INSERT INTO intercept_rules (id, text, enabled, hits) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET text = excluded.text, enabled = excluded.enabled, hits = excluded.hits').run(rule.id, rule.text, rule.enabled ? 1 : 0, rule.hits);
  }

  removeRule(id: string): void {
    this.db.prepare('DELETE FROM intercept_rules WHERE id = ?').run(id);
  }

  interventions(): Intervention[] {
    if (!this.present) return [];
    const rows = this.db.prepare('SELECT * FROM interventions ORDER BY id').all() as InterventionRow[];
    return rows.map((r) => ({
      id: r.id,
      ts: r.ts,
      ruleId: r.rule_id,
      ruleText: r.rule_text,
      action: r.action,
      sessionKey: r.session_key,
      requestSeq: r.request_seq,
      deliveredSeq: r.delivered_seq,
      ...(r.original !== null ? { original: r.original } : {}),
      note: r.note,
      ...(r.reaction !== null ? { reaction: JSON.parse(r.reaction) as Reaction } : {}),
    }));
  }

  addIntervention(e: Omit<Intervention, 'id'>): number {
    const result = this.db
      .prepare('INSERT INTO interventions (ts, rule_id, rule_text, action, session_key, request_seq, delivered_seq, original, note, reaction) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.ts, e.ruleId, e.ruleText, e.action, e.sessionKey, e.requestSeq, e.deliveredSeq, e.original ?? null, e.note, e.reaction ? JSON.stringify(e.reaction) : null);
    return Number(result.lastInsertRowid);
  }

  setReaction(id: number, reaction: Reaction): void {
    this.db.prepare('UPDATE interventions SET reaction = ? WHERE id = ?').run(JSON.stringify(reaction), id);
  }
}
