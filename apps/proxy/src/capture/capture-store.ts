/**
 * The SQLite capture store. Writes come in batches (one transaction per tick); reads serve the
 * API and the live hub. Frames are inserted, never updated; the derived tables (exchanges,
 * sessions, diagnostics, frame_exchanges) are upserted as they change and can be rebuilt.
 *
 * Durability: WAL with synchronous=NORMAL. A committed tick survives a crash of the process
 * (kill -9); only an OS crash or power loss can lose the last transactions.
 * One writer per file: a sidecar lock (file-lock.ts) gives a second mcpscope on the same file a
 * clear error instead of interleaved writes, while readers (`mcpscope export`) can still open it.
 */
import Database from 'better-sqlite3';
import type { Diagnostic, DoorRecord, ExchangeSummary, Frame, FrameView, SessionSummary } from '@mcpscope/protocol';
import { exchangeOrderKey, FRAME_RAW_LIMIT, toFrameView } from '@mcpscope/protocol';
import { migrate } from './migrations.js';
import { CaptureFileLock } from './file-lock.js';
import { ReplayLinks } from './replay-links.js';
import { DoorTable } from './door-table.js';
import { WalCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './wal-checkpointer.js';

/** Frames written before checkpoints move to a worker thread. */
const CHECKPOINTER_AFTER_FRAMES = 2000;

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

/** What one tick wrote. */
export interface WriteSet {
  frames: readonly Frame[];
  exchanges: readonly ExchangeSummary[];
  sessions: readonly SessionSummary[];
  diagnostics: readonly Diagnostic[];
  /** Door records that changed this tick (their `rev` set), written in the same transaction. */
  requests?: readonly DoorRecord[];
}

export interface WriteResult {
  exchanges: string[];
  requests: string[];
}

export class CaptureStore {
  readonly db: Database.Database;
  private readonly insertFrame: Database.Statement;
  private readonly upsertExchange: Database.Statement;
  private readonly updateExchange: Database.Statement;
  private readonly linkFrame: Database.Statement;
  private readonly upsertSession: Database.Statement;
  private readonly insertDiagnostic: Database.Statement;
  private readonly headStmt: Database.Statement;
  /** `write` as one transaction, made once: wrapping a function in a transaction is not free. */
  private readonly writeTransaction: (set: WriteSet) => WriteResult;
  /** Every HTTP request at the tap (door records); not derived, so a rebuild keeps them. */
  readonly door: DoorTable;
  private readonly statements = new Map<string, Database.Statement>();

  private readonly lock: CaptureFileLock | undefined;
  /** Not derived: survives a rebuild, and stamps `replayOf` on every summary written. */
  readonly replayLinks: ReplayLinks;
  /** Started once a capture is more than a handful of frames (see write). */
  private checkpointer: WalCheckpointer | undefined;
  private framesWritten = 0;

  constructor(readonly file: string) {
    this.lock = file === ':memory:' ? undefined : CaptureFileLock.take(file);
    // Readers (an export) hold the file only briefly; wait that out rather than fail a write.
    this.db = new Database(file, { timeout: 1000 });
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      // Seven indexes on exchanges: a bigger page cache keeps their hot pages in memory (bounded,
      // so memory stays flat as the file grows).
      this.db.pragma('cache_size = -32768');
      this.db.pragma('temp_store = MEMORY');
      migrate(this.db);
      if (file !== ':memory:') this.db.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
    } catch (err) {
      this.db.close();
      this.lock?.release();
      throw err;
    }
    this.replayLinks = new ReplayLinks(this.db);
    this.door = new DoorTable(this.db);
    this.insertFrame = this.db.prepare(
      'INSERT INTO frames (seq, ts, session_key, direction, transport, kind, raw, http, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.upsertExchange = this.db.prepare(
      `INSERT INTO exchanges (id, sort_key, session_key, kind, requester, method, target, status, updated_seq, summary, latency_ms, size, error_code, diagnostics)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, requester = excluded.requester, method = excluded.method, target = excluded.target,
         status = excluded.status, updated_seq = excluded.updated_seq, summary = excluded.summary,
         latency_ms = excluded.latency_ms, size = excluded.size, error_code = excluded.error_code, diagnostics = excluded.diagnostics`,
    );
    // An answer, progress or cancel changes a stored row's state, not what it is. SQLite rewrites
    // every index over a column named in SET, equal value or not, so the common update names only
    // the columns that change; a row whose identity did change (an orphan answer whose request
    // came later) fails the WHERE and takes the full upsert above.
    this.updateExchange = this.db.prepare(
      `UPDATE exchanges SET status = ?, updated_seq = ?, summary = ?, latency_ms = ?, size = ?, error_code = ?, diagnostics = ?
       WHERE id = ? AND kind = ? AND requester = ? AND method IS ? AND target IS ?`,
    );
    this.linkFrame = this.db.prepare('INSERT OR IGNORE INTO frame_exchanges (frame_seq, exchange_id) VALUES (?, ?)');
    this.upsertSession = this.db.prepare(
      `INSERT INTO sessions (session_key, last_ts, summary) VALUES (?, ?, ?)
       ON CONFLICT(session_key) DO UPDATE SET last_ts = excluded.last_ts, summary = excluded.summary`,
    );
    this.insertDiagnostic = this.db.prepare(
      'INSERT INTO diagnostics (frame_seq, exchange_id, code, severity, message, path) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.headStmt = this.db.prepare('SELECT MAX(seq) AS head FROM frames');
    this.writeTransaction = this.db.transaction((set: WriteSet) => {
      for (const f of set.frames) {
        this.insertFrame.run(f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.raw, f.http ? JSON.stringify(f.http) : null, Buffer.byteLength(f.raw));
      }
      const requests = set.requests && set.requests.length > 0 ? this.door.write(set.requests) : [];
      return { exchanges: this.writeDerived(set, set.frames[0]?.seq ?? 0), requests };
    });
    // The free-text filter in SQL, with the matcher's exact semantics (JS lower-casing, which
    // SQLite's lower() does not match outside ASCII).
    this.db.function('mcpscope_icontains', { deterministic: true }, (haystack: unknown, needle: unknown) =>
      typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle) ? 1 : 0,
    );
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

  /**
   * Writes one tick's worth of frames, derived rows and door records atomically. Returns each
   * exchange's summary and each door record as the JSON text stored, in `set` order (the live hub
   * sends that text as it is).
   */
  write(set: WriteSet): WriteResult {
    const written = this.writeTransaction(set);
    // A worker thread costs a boot (~50 ms) that a short capture (a test, a quick look) does not
    // need: its WAL stays small, and close() checkpoints it.
    this.framesWritten += set.frames.length;
    if (!this.checkpointer && this.file !== ':memory:' && this.framesWritten >= CHECKPOINTER_AFTER_FRAMES) this.checkpointer = new WalCheckpointer(this.file);
    return written;
  }

  /**
   * Upserts derived rows only (used by `write` and by a rebuild, which reads frames instead).
   * Frame links are written for frames from `newFrom` on: older frames of an exchange were linked
   * when they were written.
   */
  writeDerived(set: Omit<WriteSet, 'frames'>, newFrom: number): string[] {
    const summaries: string[] = [];
    for (const ex of set.exchanges) {
      this.replayLinks.annotate(ex);
      // Positional parameters, in the order of both statements: binding by name costs a property
      // lookup per column per row on the hottest write.
      const key = sortKey(ex.id);
      const method = ex.method ?? null;
      const target = ex.target ?? null;
      const summary = JSON.stringify(ex);
      summaries.push(summary);
      const latency = ex.latencyMs ?? null;
      const code = ex.errorCode ?? null;
      // A row made by a frame of an earlier write exists already: update it in place.
      const updated =
        Math.trunc(key) < newFrom &&
        this.updateExchange.run(ex.status, ex.updatedSeq, summary, latency, ex.size, code, ex.diagnostics, ex.id, ex.kind, ex.requester, method, target).changes === 1;
      if (!updated) {
        this.upsertExchange.run(ex.id, key, ex.sessionKey, ex.kind, ex.requester, method, target, ex.status, ex.updatedSeq, summary, latency, ex.size, code, ex.diagnostics);
      }
      for (const seq of ex.frameSeqs) if (seq >= newFrom) this.linkFrame.run(seq, ex.id);
    }
    for (const s of set.sessions) this.upsertSession.run(s.sessionKey, s.lastTs, JSON.stringify(s));
    for (const d of set.diagnostics) {
      this.insertDiagnostic.run(d.frameSeq, d.exchangeId ?? null, d.code, d.severity, d.message, d.path ?? null);
    }
    return summaries;
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

  /** The stored deriver snapshot (see CapturePipeline), if any: as of frame `seq`, state as JSON text. */
  deriverSnapshot(): { seq: number; version: number; state: string } | undefined {
    return this.stmt('SELECT seq, version, state FROM deriver_snapshot WHERE id = 1').get() as { seq: number; version: number; state: string } | undefined;
  }

  setDeriverSnapshot(seq: number, version: number, state: string): void {
    this.stmt(
      'INSERT INTO deriver_snapshot (id, seq, version, state) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, version = excluded.version, state = excluded.state',
    ).run(seq, version, state);
  }

  /** The lowest stored seq (retention removes the oldest frames), 0 for an empty store. */
  oldest(): number {
    return (this.stmt('SELECT MIN(seq) AS oldest FROM frames').get() as { oldest: number | null }).oldest ?? 0;
  }

  /** A counter in the meta table (0 when unset). */
  meta(key: string): number {
    return (this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: number } | undefined)?.value ?? 0;
  }

  setMeta(key: string, value: number): void {
    this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  close(): void {
    // The checkpointer's connection first: the last connection to close settles the WAL.
    this.checkpointer?.stop();
    if (this.db.open) this.db.close();
    this.lock?.release();
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
