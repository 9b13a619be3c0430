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
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { openSqlite, type SqliteDatabase, type SqliteStatement } from './sqlite.js';
import type { ConversationSummary, Diagnostic, DoorRecord, ExchangeSummary, Frame, SessionSummary } from '@mcpscope/protocol';
import { migrate } from './migrations.js';
import { CaptureFileLock } from './file-lock.js';
import { CaptureReader, sortKey } from './capture-reader.js';
import { WalCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './wal-checkpointer.js';

export { sortKey, type FrameRow } from './capture-reader.js';

/** Frames written before checkpoints move to a worker thread. */
const CHECKPOINTER_AFTER_FRAMES = 2000;

/** What one tick wrote. */
export interface WriteSet {
  frames: readonly Frame[];
  exchanges: readonly ExchangeSummary[];
  sessions: readonly SessionSummary[];
  diagnostics: readonly Diagnostic[];
  conversations: readonly ConversationSummary[];
  /** Door records that changed this tick (their `rev` set), written in the same transaction. */
  requests?: readonly DoorRecord[];
}

export interface WriteResult {
  /** Each exchange's summary as stored, in `exchanges` order. */
  exchanges: string[];
  /** Each door record as stored, in `requests` order. */
  requests: string[];
}

/**
 * Creates `path` readable by its owner only (0600), unless it exists. SQLite gives the WAL and
 * shared-memory files the database file's mode, so the whole capture stays private: it holds
 * what the user's tools were sent and answered.
 */
export function ensurePrivateFile(path: string): void {
  // 'wx' fails on an existing file without opening it. Opening and closing a file this process
  // has SQLite locks on would drop them (POSIX fcntl locks belong to the process, and any close
  // releases them): a refused second start in the same process would unlock the first.
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Opens the file for writing: the lock first, then the connection, tuned and migrated. */
function openWritable(file: string): { db: SqliteDatabase; lock: CaptureFileLock | undefined } {
  if (file !== ':memory:' && !file.startsWith('file:')) {
    ensurePrivateFile(`${file}.lock`);
    ensurePrivateFile(file);
  }
  const lock = file === ':memory:' ? undefined : CaptureFileLock.take(file);
  // Readers (an export) hold the file only briefly; wait that out rather than fail a write.
  const db = openSqlite(file, { timeout: 1000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Seven indexes on exchanges: a bigger page cache keeps their hot pages in memory (bounded,
    // so memory stays flat as the file grows).
    db.pragma('cache_size = -32768');
    db.pragma('temp_store = MEMORY');
    migrate(db);
    // Pieces of a large frame whose row never committed (a crash after the writer thread stored
    // them, before the tick that writes the row): nobody saw that frame, and its seq comes again.
    db.exec('DELETE FROM frame_parts WHERE seq NOT IN (SELECT seq FROM frames WHERE parts > 0)');
    if (file !== ':memory:') db.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
  } catch (err) {
    db.close();
    lock?.release();
    throw err;
  }
  return { db, lock };
}

/** The capture file's one writer; it reads through the CaptureReader it extends. */
export class CaptureStore extends CaptureReader {
  private readonly insertFrame: SqliteStatement;
  private readonly upsertExchange: SqliteStatement;
  private readonly updateExchange: SqliteStatement;
  private readonly linkFrame: SqliteStatement;
  private readonly upsertSession: SqliteStatement;
  private readonly insertDiagnostic: SqliteStatement;
  private readonly upsertConversation: SqliteStatement;
  /** `write` as one transaction, made once: wrapping a function in a transaction is not free. */
  private readonly writeTransaction: (set: WriteSet) => WriteResult;

  private readonly lock: CaptureFileLock | undefined;
  /** Started once a capture is more than a handful of frames (see write). */
  private checkpointer: WalCheckpointer | undefined;
  private framesWritten = 0;

  constructor(readonly file: string) {
    const { db, lock } = openWritable(file);
    super(db);
    this.lock = lock;
    this.insertFrame = this.db.prepare(
      'INSERT INTO frames (seq, ts, session_key, direction, transport, kind, raw, http, bytes, parts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.upsertExchange = this.db.prepare(
      `INSERT INTO exchanges (id, sort_key, session_key, kind, requester, method, target, status, updated_seq, summary, latency_ms, size, error_code, diagnostics, conversation_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, requester = excluded.requester, method = excluded.method, target = excluded.target,
         status = excluded.status, updated_seq = excluded.updated_seq, summary = excluded.summary,
         latency_ms = excluded.latency_ms, size = excluded.size, error_code = excluded.error_code, diagnostics = excluded.diagnostics,
         conversation_key = excluded.conversation_key`,
    );
    // An answer, progress or cancel changes a stored row's state, not what it is. SQLite rewrites
    // every index over a column named in SET, equal value or not, so the common update names only
    // the columns that change; a row whose identity did change (an orphan answer whose request
    // came later) fails the WHERE and takes the full upsert above. (A session-less row's
    // conversation is decided with its first summary and never changes.)
    this.updateExchange = this.db.prepare(
      `UPDATE exchanges SET status = ?, updated_seq = ?, summary = ?, latency_ms = ?, size = ?, error_code = ?, diagnostics = ?
       WHERE id = ? AND kind = ? AND requester = ? AND method IS ? AND target IS ?`,
    );
    this.linkFrame = this.db.prepare('INSERT OR IGNORE INTO frame_exchanges (frame_seq, exchange_id) VALUES (?, ?)');
    this.upsertSession = this.db.prepare(
      `INSERT INTO sessions (session_key, last_ts, summary, conversation_key) VALUES (?, ?, ?, ?)
       ON CONFLICT(session_key) DO UPDATE SET last_ts = excluded.last_ts, summary = excluded.summary, conversation_key = excluded.conversation_key`,
    );
    this.upsertConversation = this.db.prepare(
      `INSERT INTO conversations (key, first_ts, last_ts, members, updated_seq, summary) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET last_ts = excluded.last_ts, members = excluded.members, updated_seq = excluded.updated_seq, summary = excluded.summary`,
    );
    this.insertDiagnostic = this.db.prepare(
      'INSERT INTO diagnostics (frame_seq, exchange_id, code, severity, message, path) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.writeTransaction = this.db.transaction((set: WriteSet) => {
      for (const f of set.frames) {
        const http = f.http ? JSON.stringify(f.http) : null;
        // A large frame whose text the writer thread stored but its head (large-writer.ts): its
        // row, with the head, commits here with its derived rows.
        if (f.stored) this.insertFrame.run(f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.stored.head, http, f.stored.bytes, f.stored.pieces);
        else this.insertFrame.run(f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.raw, http, Buffer.byteLength(f.raw), 0);
      }
      const requests = set.requests && set.requests.length > 0 ? this.door.write(set.requests) : [];
      return { exchanges: this.writeDerived(set, set.frames[0]?.seq ?? 0), requests };
    });
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
        this.upsertExchange.run(ex.id, key, ex.sessionKey, ex.kind, ex.requester, method, target, ex.status, ex.updatedSeq, summary, latency, ex.size, code, ex.diagnostics, ex.conversation ?? null);
      }
      for (const seq of ex.frameSeqs) if (seq >= newFrom) this.linkFrame.run(seq, ex.id);
    }
    for (const s of set.sessions) this.upsertSession.run(s.sessionKey, s.lastTs, JSON.stringify(s), s.conversationKey ?? null);
    for (const c of set.conversations) {
      let members = 0;
      for (const n of Object.values(c.joinedBy)) members += n ?? 0;
      this.upsertConversation.run(c.key, c.firstTs, c.lastTs, members, c.updatedSeq, JSON.stringify(c));
    }
    for (const d of set.diagnostics) {
      this.insertDiagnostic.run(d.frameSeq, d.exchangeId ?? null, d.code, d.severity, d.message, d.path ?? null);
    }
    return summaries;
  }

  /**
   * The key that salts credential fingerprints in this file, made on first use. Kept apart from
   * frames and derived tables: exports never carry it, so a fingerprint in an export cannot be
   * checked against a guessed token.
   */
  fingerprintKey(): string {
    const row = this.stmt("SELECT value FROM capture_keys WHERE name = 'credential-fingerprint'").get() as { value: string } | undefined;
    if (row) return row.value;
    const value = randomBytes(32).toString('hex');
    this.stmt("INSERT INTO capture_keys (name, value) VALUES ('credential-fingerprint', ?)").run(value);
    return value;
  }

  setDeriverSnapshot(seq: number, version: number, state: string): void {
    this.stmt(
      'INSERT INTO deriver_snapshot (id, seq, version, state) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, version = excluded.version, state = excluded.state',
    ).run(seq, version, state);
  }

  setMeta(key: string, value: number): void {
    this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  override close(): void {
    // The checkpointer's connection first: the last connection to close settles the WAL.
    this.checkpointer?.stop();
    super.close();
    this.lock?.release();
  }
}
