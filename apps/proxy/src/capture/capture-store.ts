/**
 * The SQLite capture store: persistence only. Live ticks are written by the capture engine
 * (capture-engine.ts), in process on this connection or on its worker's own; reads serve the API
 * and the live hub. Frames are inserted, never updated; the derived tables (exchanges,
 * sessions, diagnostics, frame_exchanges) are upserted as they change and can be rebuilt.
 *
 * Durability: WAL with synchronous=NORMAL. A committed tick survives a crash of the process
 * (kill -9); only an OS crash or power loss can lose the last transactions.
 * One writer per file: a sidecar lock (file-lock.ts) gives a second mcpscope on the same file a
 * clear error instead of interleaved writes, while readers (`mcpscope export`) can still open it.
 */
import { closeSync, openSync } from 'node:fs';
import { openSqlite, type SqliteDatabase, type SqliteStatement } from './sqlite.js';
import type { ConversationSummary, Diagnostic, DoorRecord, ExchangeSummary, Frame, SessionSummary } from '@mcpscope/protocol';
import { migrate } from './migrations.js';
import { CaptureFileLock } from './file-lock.js';
import { CaptureReader } from './capture-reader.js';
import { TICK_SQL, TickOps, applyTickOps, type TickTexts } from './tick-ops.js';
import { TemplateWriter } from './templates.js';

export { sortKey, type FrameRow } from './capture-reader.js';

/**
 * Pages (4 KiB) the WAL may reach before a commit checkpoints it itself: high, because the
 * engine's worker checkpoints between ticks (engine-worker.ts); a bound if it falls behind.
 */
export const AUTOCHECKPOINT_PAGES = 16_384;

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

/** What one write stored, as JSON texts (tick-ops.ts). */
export type WriteResult = TickTexts;

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
    // Pieces of a large frame whose row never committed (a crash after the large-frame writer
    // stored them, before the tick that writes the row): nobody saw that frame, and its seq comes again.
    db.exec('DELETE FROM frame_parts WHERE seq NOT IN (SELECT seq FROM frames WHERE parts > 0)');
    if (file !== ':memory:') db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  } catch (err) {
    db.close();
    lock?.release();
    throw err;
  }
  return { db, lock };
}

/** The capture file's one writer; it reads through the CaptureReader it extends. */
export class CaptureStore extends CaptureReader {
  /** TICK_SQL's statements, prepared on this connection. */
  private readonly tickStatements: SqliteStatement[];
  /** A write's list as one transaction, made once: wrapping a function in a transaction is not free. */
  private readonly writeTransaction: (ops: unknown[]) => void;
  private readonly templateWriter: TemplateWriter;
  private readonly lock: CaptureFileLock | undefined;

  constructor(readonly file: string) {
    const { db, lock } = openWritable(file);
    super(db);
    this.lock = lock;
    this.tickStatements = TICK_SQL.map((sql) => (sql === '' ? undefined! : this.db.prepare(sql)));
    this.writeTransaction = this.db.transaction((ops: unknown[]) => applyTickOps(this.tickStatements, ops));
    this.templateWriter = new TemplateWriter(this.db);
  }

  private readonly annotate = (ex: ExchangeSummary) => this.replayLinks.annotate(ex);

  /**
   * Writes a set of frames, derived rows and door records atomically, as given (the live capture
   * derives and writes through its engine instead: capture-engine.ts). Returns each exchange's
   * summary and each door record as the JSON text stored, in `set` order.
   */
  write(set: WriteSet): WriteResult {
    const ops = new TickOps(this.templateWriter);
    ops.frames(set.frames);
    if (set.requests && set.requests.length > 0) ops.door(set.requests);
    ops.derived(set, set.frames[0]?.seq ?? 0, this.annotate);
    this.writeTransaction(ops.ops);
    return ops.texts;
  }

  /** Whether frame `seq` is stored (a tick is all or nothing: its first frame says whether it committed). */
  hasFrame(seq: number): boolean {
    return this.stmt('SELECT 1 FROM frames WHERE seq = ?').get(seq) !== undefined;
  }

  /**
   * Upserts derived rows only (used by a rebuild, which reads frames instead), in the caller's
   * transaction. Frame links are written for frames from `newFrom` on: older frames of an
   * exchange were linked when they were written.
   */
  writeDerived(set: Omit<WriteSet, 'frames'>, newFrom: number): string[] {
    const ops = new TickOps(this.templateWriter);
    ops.derived(set, newFrom, this.annotate);
    applyTickOps(this.tickStatements, ops.ops);
    return ops.texts.exchanges;
  }

  setMeta(key: string, value: number): void {
    this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** Close the capture's pipeline first: its engine's connection closes before this, the last, which settles the WAL. */
  override close(): void {
    super.close();
    this.lock?.release();
  }
}
