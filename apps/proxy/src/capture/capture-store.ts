/**
 * The SQLite capture store. Writes come in batches (one transaction per tick, on the tick
 * writer's thread once a capture file is busy: tick-writer.ts); reads serve the API and the live
 * hub. Frames are inserted, never updated; the derived tables (exchanges,
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
import { WalCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './wal-checkpointer.js';
import { TICK_SQL, TickOps, applyTickOps, type TickTexts } from './tick-ops.js';
import { TickWriter, isGone, threadError } from './tick-writer.js';
import type { EncodedWrite, ThreadFailure, TickRequest } from './tick-thread.js';
import { doorTexts, flattenFrames } from './tick-wire.js';

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

/** What one write stored, as JSON texts (tick-ops.ts). */
export type WriteResult = TickTexts;

export type { EncodedWrite } from './tick-thread.js';

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

/**
 * Frames written before the tick writer's thread starts (after the first write on a capture
 * file): its boot (~50 ms, on its own thread) delays nothing, since writes stay on this thread's
 * connection until it is ready, and every capture file, a short one too, is written the same way.
 */
export const TICK_WRITER_AFTER_FRAMES = 0;

/**
 * A write's outcome, as `writeSoon` and `tickSoon` deliver it. A failed tick that the thread
 * derived comes with its encoded list (`held`), to hold and retry as it is; `gone` says the thread
 * died under it, and whether the write had committed first.
 */
export type WriteOutcome =
  | { ok: true; result: WriteResult; noted?: ThreadFailure[] }
  | { ok: false; failure: unknown; held?: EncodedWrite; noted?: ThreadFailure[]; gone?: { committed: boolean } };

/** The frames and door records of a tick the thread derives (tick-thread.ts); large frames' messages by index. */
export interface TickWork {
  frames: Frame[];
  requests: DoorRecord[];
  messages: TickRequest['messages'];
}

export interface CaptureStoreOptions {
  /**
   * Frames written before tick writes move to the worker thread (tick-writer.ts); `Infinity`
   * keeps them on this thread (`:memory:` always does: a worker cannot share it).
   */
  threadWritesAfter?: number;
}

/** The capture file's one writer; it reads through the CaptureReader it extends. */
export class CaptureStore extends CaptureReader {
  /** TICK_SQL's statements, prepared on this connection. */
  private readonly tickStatements: SqliteStatement[];
  /** A write's list as one transaction, made once: wrapping a function in a transaction is not free. */
  private readonly writeTransaction: (ops: unknown[]) => void;

  private readonly lock: CaptureFileLock | undefined;
  /** Started once a capture is more than a handful of frames (see write). */
  private checkpointer: WalCheckpointer | undefined;
  /** Started likewise; writes go there once it is ready (see writeSoon). */
  private tickWriter: TickWriter | undefined;
  private readonly threadWritesAfter: number;
  private threadGoneListener: ((error: Error) => void) | undefined;
  private framesWritten = 0;

  constructor(
    readonly file: string,
    options: CaptureStoreOptions = {},
  ) {
    const { db, lock } = openWritable(file);
    super(db);
    this.lock = lock;
    this.threadWritesAfter = file === ':memory:' ? Infinity : (options.threadWritesAfter ?? TICK_WRITER_AFTER_FRAMES);
    this.tickStatements = TICK_SQL.map((sql) => (sql === '' ? undefined! : this.db.prepare(sql)));
    this.writeTransaction = this.db.transaction((ops: unknown[]) => applyTickOps(this.tickStatements, ops));
  }

  /** One write's statement list and the texts it stores. */
  encode(set: WriteSet): EncodedWrite {
    const ops = new TickOps();
    ops.frames(set.frames);
    if (set.requests && set.requests.length > 0) ops.door(set.requests);
    ops.derived(set, set.frames[0]?.seq ?? 0, this.annotate);
    return { ops: ops.ops, texts: ops.texts };
  }

  private readonly annotate = (ex: ExchangeSummary) => this.replayLinks.annotate(ex);

  /**
   * Writes one tick's worth of frames, derived rows and door records atomically, on this thread.
   * Returns each exchange's summary and each door record as the JSON text stored, in `set` order
   * (the live hub sends that text as it is).
   */
  write(set: WriteSet): WriteResult {
    const { ops, texts } = this.encode(set);
    this.writeTransaction(ops);
    this.wrote(set.frames.length);
    return texts;
  }

  /**
   * Writes an encoded write (`encode`) of `frames`, on the tick writer's thread when it runs (then
   * `landed` runs from a later turn of the event loop, or from `settleWrites()`), else here and now
   * (`landed` runs before this returns). One write at a time: call again only after `landed`.
   */
  writeSoon(write: EncodedWrite, frames: readonly Frame[], landed: (outcome: WriteOutcome) => void): void {
    const writer = this.tickWriter;
    if (!writer?.ready) return this.writeHere(write, frames.length, landed);
    writer.write(write.ops, (answer) => {
      // The thread died: this write, and every one after, runs on this connection instead, unless
      // it died after its commit (writing it again would fail on the first frame's seq).
      if (isGone(answer)) {
        if (this.committed(frames)) return this.landedOk(write.texts, frames.length, landed);
        return this.writeHere(write, frames.length, landed);
      }
      if (answer.error) return landed({ ok: false, failure: threadError(answer.error) });
      this.landedOk(write.texts, frames.length, landed);
    });
  }

  /**
   * Has the tick writer's thread derive, encode and write a tick (after `adoptDeriving`); `landed`
   * runs from a later turn of the event loop, or from `settleWrites()`. A thread that dies under it
   * lands as `gone`: the caller derives again, here.
   */
  tickSoon(work: TickWork, landed: (outcome: WriteOutcome) => void): void {
    const writer = this.tickWriter!;
    const requests = doorTexts(work.requests);
    writer.tick({ frames: flattenFrames(work.frames), requests, messages: work.messages, links: this.replayLinks.takeNew() }, (answer) => {
      if (isGone(answer)) return landed({ ok: false, failure: answer, gone: { committed: this.committed(work.frames) } });
      if (answer.error) return landed({ ok: false, failure: threadError(answer.error), held: answer.held, noted: answer.noted });
      this.wrote(work.frames.length);
      landed({ ok: true, result: { ...answer.texts!, requests }, ...(answer.noted ? { noted: answer.noted } : {}) });
    });
  }

  /** Whether the tick writer's thread can take deriving over now (it is up, and not deriving yet). */
  get threadCanDerive(): boolean {
    return this.tickWriter?.ready === true && !this.tickWriter.derives;
  }

  /** Whether ticks go to the thread to be derived there (see tickSoon). */
  get threadDerives(): boolean {
    return this.tickWriter?.derives === true;
  }

  /**
   * Hands deriving to the tick writer's thread: call between writes, when every frame the caller
   * derived is committed (the thread warms its deriver from the store).
   */
  adoptDeriving(): void {
    this.replayLinks.forwardNew();
    this.tickWriter!.adopt();
  }

  /** Hears once if the tick writer's thread dies or cannot start (the pipeline says so in the capture's status). */
  onThreadGone(listener: (error: Error) => void): void {
    this.threadGoneListener = listener;
  }

  /** Has the tick writer's thread store its deriver's snapshot now (shutdown), if it derives. */
  snapshotOnThread(): void {
    if (this.tickWriter?.derives) this.tickWriter.snapshot();
  }

  /** Whether a write whose thread died had committed: its first frame is there (a transaction is all or nothing). */
  private committed(frames: readonly Frame[]): boolean {
    return frames.length > 0 && this.hasFrame(frames[0]!.seq);
  }

  private hasFrame(seq: number): boolean {
    return this.stmt('SELECT 1 FROM frames WHERE seq = ?').get(seq) !== undefined;
  }

  private writeHere(write: EncodedWrite, frames: number, landed: (outcome: WriteOutcome) => void): void {
    try {
      this.writeTransaction(write.ops);
    } catch (failure) {
      return landed({ ok: false, failure });
    }
    this.landedOk(write.texts, frames, landed);
  }

  private landedOk(texts: TickTexts, frames: number, landed: (outcome: WriteOutcome) => void): void {
    this.wrote(frames);
    landed({ ok: true, result: texts });
  }

  /** Whether writes go to the tick writer's thread now (see writeSoon). */
  get writesOnThread(): boolean {
    return this.tickWriter?.ready === true;
  }

  /** Waits (blocking, bounded) for a write under way on the tick writer's thread, and delivers it. */
  settleWrites(): void {
    this.tickWriter?.settle();
  }

  /** Counts frames written; starts the helper threads (see each threshold). */
  private wrote(frames: number): void {
    // The checkpointer's boot is not worth it for a short capture (a test, a quick look): its WAL
    // stays small, and close() checkpoints it.
    this.framesWritten += frames;
    if (this.file === ':memory:') return;
    if (!this.checkpointer && this.framesWritten >= CHECKPOINTER_AFTER_FRAMES) this.checkpointer = new WalCheckpointer(this.file);
    if (!this.tickWriter && this.framesWritten >= this.threadWritesAfter) this.tickWriter = new TickWriter(this.file, (err) => this.threadGoneListener?.(err));
  }

  /**
   * Upserts derived rows only (used by a rebuild, which reads frames instead), in the caller's
   * transaction. Frame links are written for frames from `newFrom` on: older frames of an
   * exchange were linked when they were written.
   */
  writeDerived(set: Omit<WriteSet, 'frames'>, newFrom: number): string[] {
    const ops = new TickOps();
    ops.derived(set, newFrom, this.annotate);
    applyTickOps(this.tickStatements, ops.ops);
    return ops.texts.exchanges;
  }

  setMeta(key: string, value: number): void {
    this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  override close(): void {
    // The threads' connections first: the last connection to close settles the WAL.
    this.tickWriter?.stop();
    this.checkpointer?.stop();
    super.close();
    this.lock?.release();
  }
}
