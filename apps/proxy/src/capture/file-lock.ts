/**
 * One mcpscope per capture file, while anyone may still read it (`mcpscope export` on a live
 * capture). The lock is a sidecar SQLite file held in EXCLUSIVE locking mode: the OS releases it
 * when the process dies, so a kill -9 leaves nothing stale behind, and the capture file itself
 * stays in ordinary WAL mode where readers never block the writer.
 */
import Database from 'better-sqlite3';
import { InspectorError } from '../core/errors.js';

export class CaptureFileLock {
  private constructor(private readonly db: Database.Database) {}

  static take(captureFile: string): CaptureFileLock {
    const db = new Database(`${captureFile}.lock`, { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      // In EXCLUSIVE locking mode the lock taken by this transaction is kept until close.
      db.exec('BEGIN EXCLUSIVE; COMMIT;');
      return new CaptureFileLock(db);
    } catch (err) {
      db.close();
      if ((err as { code?: string }).code === 'SQLITE_BUSY') {
        throw new InspectorError('db_locked', `${captureFile} is in use by another mcpscope. Stop it, or pass a different --db.`);
      }
      throw err;
    }
  }

  release(): void {
    this.db.close();
  }
}
