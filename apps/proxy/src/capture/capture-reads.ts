/**
 * Reads of a capture database: frames, exchanges, sessions and diagnostics, through prepared
 * statements cached by their text. The live store (capture-store.ts) is this plus the writes; a
 * capture file opened read-only by another process (`mcpscope mcp --db FILE`) is this alone, and
 * sees what a running mcpscope commits to the same file (WAL: readers never block the writer).
 *
 * Nothing here writes, so a read-only connection can serve every method.
 */
import Database from 'better-sqlite3';
import type { Diagnostic, ExchangeSummary, Frame, FrameView, SessionSummary } from '@mcpscope/protocol';
import { exchangeOrderKey, FRAME_RAW_LIMIT, toFrameView } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';
import { SCHEMA_VERSION } from './migrations.js';

export interface FrameRow {
  seq: number;
  ts: number;
  session_key: string;
  direction: Frame['direction'];
  transport: Frame['transport'];
  kind: Frame['kind'];
  raw: string;
  http: string | null;
}

interface DiagnosticRow {
  frame_seq: number;
  exchange_id: string | null;
  code: string;
  severity: Diagnostic['severity'];
  message: string;
  path: string | null;
}

export class CaptureReads {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly headStmt: Database.Statement;

  /** `db` must already hold the current schema (the store migrates before it gets here). */
  constructor(readonly db: Database.Database) {
    this.headStmt = db.prepare('SELECT MAX(seq) AS head FROM frames');
    // The free-text filter in SQL, with the matcher's exact semantics (JS lower-casing, which
    // SQLite's lower() does not match outside ASCII). Registered per connection.
    db.function('mcpscope_icontains', { deterministic: true }, (haystack: unknown, needle: unknown) =>
      typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle) ? 1 : 0,
    );
  }

  /**
   * A capture file opened read-only, beside the mcpscope that may be writing it. A file of an
   * older schema is refused with what to do (it is upgraded by the next mcpscope that writes it;
   * a reader never migrates), as is one from a newer mcpscope.
   */
  static openFile(file: string): CaptureReads {
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 1000 });
    try {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) throw new InspectorError('db_too_new', `${file} was written by a newer mcpscope (schema ${version}, this one reads ${SCHEMA_VERSION})`);
      if (version < SCHEMA_VERSION) {
        const what = version === 0 ? 'is not an mcpscope capture database' : `has an older schema (${version} of ${SCHEMA_VERSION})`;
        throw new InspectorError('db_schema', `${file} ${what}; run \`mcpscope rebuild --db ${file}\` once to upgrade it`);
      }
      return new CaptureReads(db);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** A prepared statement, cached by its text (prepare costs more than most reads). */
  stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // IN lists of every arity would grow the cache without end: keep only the first few hundred.
      if (this.statements.size < 256) this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The highest stored seq, 0 for an empty store. */
  head(): number {
    return (this.headStmt.get() as { head: number | null }).head ?? 0;
  }

  /** Frames after `after`, oldest first, bodies cut at `rawLimit`. */
  framesAfter(after: number, limit: number, rawLimit = FRAME_RAW_LIMIT): FrameView[] {
    const rows = this.stmt('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT ?').all(after, limit) as FrameRow[];
    return rows.map((r) => toView(r, rawLimit));
  }

  /** Whole frames (never cut), oldest first, for replaying them through the deriver. */
  rawFramesAfter(after: number, limit: number): Frame[] {
    const rows = this.stmt('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT ?').all(after, limit) as FrameRow[];
    return rows.map(toFrame);
  }

  framesBySeq(seqs: readonly number[], rawLimit = Infinity): FrameView[] {
    if (seqs.length === 0) return [];
    const rows = this
      .stmt(`SELECT * FROM frames WHERE seq IN (${seqs.map(() => '?').join(',')}) ORDER BY seq`)
      .all(...seqs) as FrameRow[];
    return rows.map((r) => toView(r, rawLimit));
  }

  /** One frame's raw text, whole (for downloads); undefined when there is no such frame. */
  frameRaw(seq: number): { raw: string; bytes: number } | undefined {
    return this.stmt('SELECT raw, bytes FROM frames WHERE seq = ?').get(seq) as { raw: string; bytes: number } | undefined;
  }

  /** The raw text of several frames joined by newlines (for free-text filters). */
  framesText(seqs: readonly number[]): string {
    if (seqs.length === 0) return '';
    const rows = this
      .stmt(`SELECT raw FROM frames WHERE seq IN (${seqs.map(() => '?').join(',')})`)
      .all(...seqs) as { raw: string }[];
    return rows.map((r) => r.raw).join('\n');
  }

  /** Newest first, paged by `before` (a sort key); unfiltered (filtered pages: CaptureQuery). */
  exchanges(limit: number, before?: number): ExchangeSummary[] {
    const rows = (before === undefined
      ? this.stmt('SELECT summary FROM exchanges ORDER BY sort_key DESC LIMIT ?').all(limit)
      : this.stmt('SELECT summary FROM exchanges WHERE sort_key < ? ORDER BY sort_key DESC LIMIT ?').all(before, limit)) as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as ExchangeSummary);
  }

  /** Exchanges changed by frames after `after`, oldest change first, as stored JSON text (for WebSocket catch-up). */
  exchangesUpdatedAfter(after: number, limit: number): { id: string; summary: string }[] {
    return this.stmt('SELECT id, summary FROM exchanges WHERE updated_seq > ? ORDER BY updated_seq LIMIT ?').all(after, limit) as { id: string; summary: string }[];
  }

  exchange(id: string): ExchangeSummary | undefined {
    const row = this.stmt('SELECT summary FROM exchanges WHERE id = ?').get(id) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ExchangeSummary) : undefined;
  }

  /** Findings about an exchange or any of its frames, in capture order. */
  diagnosticsFor(ex: Pick<ExchangeSummary, 'id' | 'frameSeqs'>): Diagnostic[] {
    const seqs = ex.frameSeqs;
    const rows = this
      .stmt(
        `SELECT * FROM diagnostics WHERE exchange_id = ?${seqs.length ? ` OR frame_seq IN (${seqs.map(() => '?').join(',')})` : ''} ORDER BY id`,
      )
      .all(ex.id, ...seqs) as DiagnosticRow[];
    return rows.map(toDiagnostic);
  }

  /** The distinct diagnostic codes of an exchange (for `diag:CODE` filters). */
  diagnosticCodes(ex: Pick<ExchangeSummary, 'id' | 'frameSeqs'>): string[] {
    return [...new Set(this.diagnosticsFor(ex).map((d) => d.code))];
  }

  sessions(): SessionSummary[] {
    const rows = this.stmt('SELECT summary FROM sessions ORDER BY last_ts DESC').all() as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as SessionSummary);
  }

  session(key: string): SessionSummary | undefined {
    const row = this.stmt('SELECT summary FROM sessions WHERE session_key = ?').get(key) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as SessionSummary) : undefined;
  }

  /** The lowest stored seq (retention removes the oldest frames), 0 for an empty store. */
  oldest(): number {
    return (this.stmt('SELECT MIN(seq) AS oldest FROM frames').get() as { oldest: number | null }).oldest ?? 0;
  }

  /** A counter in the meta table (0 when unset). */
  meta(key: string): number {
    return (this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: number } | undefined)?.value ?? 0;
  }
}

/** The `sort_key` column: capture order of an exchange id (one definition, in the protocol package). */
export const sortKey = exchangeOrderKey;

export function toFrame(r: FrameRow): Frame {
  const frame: Frame = { seq: r.seq, ts: r.ts, sessionKey: r.session_key, direction: r.direction, transport: r.transport, kind: r.kind, raw: r.raw };
  if (r.http) frame.http = JSON.parse(r.http) as Frame['http'];
  return frame;
}

function toView(r: FrameRow, rawLimit: number): FrameView {
  return toFrameView(toFrame(r), rawLimit);
}

function toDiagnostic(r: DiagnosticRow): Diagnostic {
  const d: Diagnostic = { frameSeq: r.frame_seq, code: r.code, severity: r.severity, message: r.message };
  if (r.exchange_id !== null) d.exchangeId = r.exchange_id;
  if (r.path !== null) d.path = r.path;
  return d;
}
