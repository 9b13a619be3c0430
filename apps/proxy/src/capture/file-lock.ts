/**
 * One mcpscope per capture file, while anyone may still read it (`mcpscope export` on a live
 * capture). The lock is a sidecar SQLite file held in EXCLUSIVE locking mode: the OS releases it
 * when the process dies, so a kill -9 leaves nothing stale behind, and the capture file itself
 * stays in ordinary WAL mode where readers never block the writer.
 */
import { existsSync } from 'node:fs';
import { isSqliteBusy, openSqlite, type SqliteDatabase } from './sqlite.js';
import { InspectorError } from '../core/errors.js';

export class CaptureFileLock {
  private constructor(private readonly db: SqliteDatabase) {}

  static take(captureFile: string): CaptureFileLock {
    const db = openSqlite(`${captureFile}.lock`, { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      // In EXCLUSIVE locking mode the lock taken by this transaction is kept until close.
      db.exec('BEGIN EXCLUSIVE; COMMIT;');
      return new CaptureFileLock(db);
    } catch (err) {
      db.close();
      if (isSqliteBusy(err)) {
        throw new InspectorError('db_locked', `${captureFile} is in use by another mcpscope. Stop it, or pass a different --db.`);
      }
      throw err;
    }
  }

  /**
   * Whether another mcpscope holds the lock now (it is recording the file), found without taking
   * it or creating anything: a read-only look at the sidecar, which the holder's EXCLUSIVE lock
   * refuses. No sidecar: no mcpscope has the file open for writing (a writer makes it first).
   */
  static heldElsewhere(captureFile: string): boolean {
    const sidecar = `${captureFile}.lock`;
    if (!existsSync(sidecar)) return false;
    let db: SqliteDatabase;
    try {
      db = openSqlite(sidecar, { readonly: true, fileMustExist: true, timeout: 0 });
    } catch {
      return false;
    }
    try {
      db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
      return false;
    } catch (err) {
      if (isSqliteBusy(err)) return true;
      return false;
    } finally {
      db.close();
    }
  }

  /** The lock, if no other mcpscope holds it (else undefined). */
  static tryTake(captureFile: string): CaptureFileLock | undefined {
    try {
      return CaptureFileLock.take(captureFile);
    } catch (err) {
      if (err instanceof InspectorError && err.code === 'db_locked') return undefined;
      throw err;
    }
  }

  release(): void {
    this.db.close();
  }
}
