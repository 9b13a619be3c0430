/**
 * One mcpscope per capture file, while anyone may still read it (`mcpscope export` on a live
 * capture). The lock is a sidecar SQLite file held in EXCLUSIVE locking mode: the OS releases it
 * when the process dies, so a kill -9 leaves nothing stale behind, and the capture file itself
 * stays in ordinary WAL mode where readers never block the writer.
 */
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

  release(): void {
    this.db.close();
  }
}
