/**
 * What an export reads: frames whole (never cut at the list limit), exchanges and sessions,
 * straight from a capture database. Works on the live store's connection and on a file opened
 * read-only by `mcpscope export`, so a running proxy and the CLI export the same way.
 *
 * Frames are read in pages keyed by seq, never through an open cursor: an export may be consumed
 * across ticks while the capture pipeline writes on the same connection, and a page holds only
 * its own rows, so a million-frame JSONL export never holds them all at once (HAR, being one JSON
 * document, does).
 */
import Database from 'better-sqlite3';
import type { DoorRecord, ExchangeSummary, Frame, SessionSummary } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';
import type { FrameRow } from './capture-store.js';
import { DoorTable } from './door-table.js';

/** Which exchanges an export keeps; frames outside any kept exchange are left out. */
export type ExchangePredicate = (exchange: ExchangeSummary, session: SessionSummary | undefined, bodyText: () => string, diagnosticCodes: readonly string[]) => boolean;

export interface Selection {
  /** Only this session (exact key). */
  session?: string;
  /** Only the frames of exchanges this accepts. Without it, every frame (of the session). */
  exchanges?: ExchangePredicate;
  /** Only these exchanges (by id), e.g. one request for curl. */
  exchangeIds?: readonly string[];
}

const CHUNK = 500;

export class FrameSource {
  private hasDiagnostics: boolean | undefined;

  constructor(readonly db: Database.Database) {}

  /**
   * Opens a capture file read-only. A running mcpscope holds its file exclusively, so reading
   * one that is in use fails at once with `db_locked` (export it from that mcpscope's dashboard
   * or API instead).
   */
  static openFile(file: string): FrameSource {
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    try {
      db.prepare('SELECT seq FROM frames LIMIT 1').get();
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') {
        throw new InspectorError('db_locked', `${file} is in use by a running mcpscope; export from its dashboard or GET /api/export, or stop it first.`);
      }
      throw err;
    }
    return new FrameSource(db);
  }

  close(): void {
    this.db.close();
  }

  sessions(): SessionSummary[] {
    const rows = this.db.prepare('SELECT summary FROM sessions ORDER BY last_ts').all() as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as SessionSummary);
  }

  exchange(id: string): ExchangeSummary | undefined {
    const row = this.db.prepare('SELECT summary FROM exchanges WHERE id = ?').get(id) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ExchangeSummary) : undefined;
  }

  /** Door records (every HTTP request at the tap) in arrival order; none in a file from before them. */
  requests(): Iterable<DoorRecord> {
    return new DoorTable(this.db).all();
  }

  /** Exchanges in capture order. */
  *exchanges(session?: string): Iterable<ExchangeSummary> {
    const page = session === undefined
      ? this.db.prepare('SELECT sort_key, summary FROM exchanges WHERE sort_key > ? ORDER BY sort_key LIMIT ?')
      : this.db.prepare('SELECT sort_key, summary FROM exchanges WHERE sort_key > ? AND session_key = ? ORDER BY sort_key LIMIT ?');
    let after = -1;
    for (;;) {
      const rows = (session === undefined ? page.all(after, CHUNK) : page.all(after, session, CHUNK)) as { sort_key: number; summary: string }[];
      for (const r of rows) yield JSON.parse(r.summary) as ExchangeSummary;
      if (rows.length < CHUNK) return;
      after = rows[rows.length - 1]!.sort_key;
    }
  }

  /** Codes of an exchange's stored diagnostics, for the filter's `diag:CODE` ([] on files without them). */
  diagnosticCodes(exchangeId: string): string[] {
    this.hasDiagnostics ??= this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'diagnostics'").get() !== undefined;
    if (!this.hasDiagnostics) return [];
    const rows = this.db.prepare('SELECT code FROM diagnostics WHERE exchange_id = ?').all(exchangeId) as { code: string }[];
    return rows.map((r) => r.code);
  }

  framesBySeq(seqs: readonly number[]): Frame[] {
    const out: Frame[] = [];
    for (let i = 0; i < seqs.length; i += CHUNK) {
      const chunk = seqs.slice(i, i + CHUNK);
      const rows = this.db.prepare(`SELECT * FROM frames WHERE seq IN (${chunk.map(() => '?').join(',')}) ORDER BY seq`).all(...chunk) as FrameRow[];
      for (const r of rows) out.push(toFrame(r));
    }
    return out;
  }

  /** The selected frames, in capture order. */
  *select(selection: Selection = {}): Iterable<Frame> {
    if (!selection.exchanges && !selection.exchangeIds) {
      const session = selection.session;
      const page = session === undefined
        ? this.db.prepare('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT ?')
        : this.db.prepare('SELECT * FROM frames WHERE seq > ? AND session_key = ? ORDER BY seq LIMIT ?');
      let after = -1;
      for (;;) {
        const rows = (session === undefined ? page.all(after, CHUNK) : page.all(after, session, CHUNK)) as FrameRow[];
        for (const r of rows) yield toFrame(r);
        if (rows.length < CHUNK) return;
        after = rows[rows.length - 1]!.seq;
      }
    }
    const seqs = new Set<number>();
    if (selection.exchangeIds) {
      for (const id of selection.exchangeIds) for (const seq of this.exchange(id)?.frameSeqs ?? []) seqs.add(seq);
    } else {
      const sessions = new Map(this.sessions().map((s) => [s.sessionKey, s]));
      for (const ex of this.exchanges(selection.session)) {
        const bodyText = () => this.framesBySeq(ex.frameSeqs).map((f) => f.raw).join('\n');
        const codes = ex.diagnostics > 0 ? this.diagnosticCodes(ex.id) : [];
        if (selection.exchanges!(ex, sessions.get(ex.sessionKey), bodyText, codes)) for (const seq of ex.frameSeqs) seqs.add(seq);
      }
    }
    const sorted = [...seqs].sort((a, b) => a - b);
    for (let i = 0; i < sorted.length; i += CHUNK) yield* this.framesBySeq(sorted.slice(i, i + CHUNK));
  }
}

function toFrame(r: FrameRow): Frame {
  const frame: Frame = { seq: r.seq, ts: r.ts, sessionKey: r.session_key, direction: r.direction, transport: r.transport, kind: r.kind, raw: r.raw };
  if (r.http) frame.http = JSON.parse(r.http) as Frame['http'];
  return frame;
}
