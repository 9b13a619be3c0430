// The SQLite adapter's contract (capture/sqlite.ts), run against whichever driver this Node gets:
// better-sqlite3 in the gate (Node 20), node:sqlite when release/test/package.test.ts runs this
// same file under Node 22 and 24. Everything the store relies on is here, so a driver that
// behaves differently fails on the Node where it runs.
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InspectorError } from '../src/core/errors.js';
import { CaptureFileLock } from '../src/capture/file-lock.js';
import { isSqliteBusy, openSqlite, sqliteDriver } from '../src/capture/sqlite.js';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'mcpscope-sqlite-')), 'test.db');

function withTable() {
  const db = openSqlite(tempFile());
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  return db;
}

describe(`the SQLite adapter (${sqliteDriver()}, Node ${process.version})`, () => {
  it('picks node:sqlite from Node 22.16 on, better-sqlite3 before', () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const builtIn = major > 23 || (major === 23 && minor >= 10) || (major === 22 && minor >= 16);
    expect(sqliteDriver()).toBe(builtIn ? 'node:sqlite' : 'better-sqlite3');
  });

  it('runs statements: positional parameters, run results, get, all, iterate, NULL and REAL round trips', () => {
    const db = withTable();
    const insert = db.prepare('INSERT INTO t (id, name) VALUES (?, ?)');
    expect(insert.run(1, 'one')).toMatchObject({ changes: 1, lastInsertRowid: 1 });
    insert.run(2, 'two');
    expect(db.prepare('SELECT name FROM t WHERE id = ?').get(2)).toEqual({ name: 'two' });
    expect(db.prepare('SELECT name FROM t WHERE id = ?').get(9)).toBeUndefined();
    expect(db.prepare('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 1 }, { id: 2 }]);
    expect([...db.prepare('SELECT name FROM t ORDER BY id DESC').iterate()]).toEqual([{ name: 'two' }, { name: 'one' }]);
    expect(db.prepare('SELECT ? AS n, ? AS r, ? AS s').get(null, 1.5, 'x')).toEqual({ n: null, r: 1.5, s: 'x' });
    expect(db.prepare('UPDATE t SET name = ? WHERE id > ?').run('many', 0).changes).toBe(2);
    db.close();
    expect(db.open).toBe(false);
  });

  it('reads pragmas as rows, or as one value with simple', () => {
    const db = openSqlite(tempFile());
    expect(db.pragma('journal_mode = WAL')).toEqual([{ journal_mode: 'wal' }]);
    db.pragma('user_version = 7');
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    db.close();
  });

  it('commits a transaction, rolls back one that throws, and nests as a savepoint', () => {
    const db = withTable();
    const insert = db.prepare('INSERT INTO t (id, name) VALUES (?, ?)');
    const count = () => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    const addTwo = db.transaction((first: number) => {
      insert.run(first, 'a');
      insert.run(first + 1, 'b');
      return first + 1;
    });
    expect(addTwo(1)).toBe(2);
    expect(count()).toBe(2);
    // A primary-key clash on the second row undoes the first.
    expect(() => addTwo(2)).toThrow();
    expect(count()).toBe(2);
    const outer = db.transaction(() => {
      insert.run(10, 'kept');
      try {
        db.transaction(() => {
          insert.run(11, 'undone');
          throw new Error('inner fails');
        })();
      } catch {
        // the inner savepoint is rolled back; the outer transaction goes on
      }
      insert.run(12, 'kept too');
    });
    outer();
    expect(db.prepare('SELECT id FROM t WHERE id >= 10 ORDER BY id').all()).toEqual([{ id: 10 }, { id: 12 }]);
    db.close();
  });

  it('calls a JavaScript function from SQL', () => {
    const db = withTable();
    db.function('shout', { deterministic: true }, ((s: unknown) => (typeof s === 'string' ? s.toUpperCase() : null)) as (...args: never[]) => unknown);
    db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'ünïcode');
    expect(db.prepare('SELECT shout(name) AS s FROM t').get()).toEqual({ s: 'ÜNÏCODE' });
    db.close();
  });

  it('opens read-only: refuses a missing file and any write', () => {
    expect(() => openSqlite(join(tmpdir(), `missing-${process.pid}.db`), { readonly: true, fileMustExist: true })).toThrow(/unable to open/);
    const file = tempFile();
    const writer = openSqlite(file);
    writer.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('kept')");
    writer.close();
    const readonly = openSqlite(file, { readonly: true, fileMustExist: true });
    expect(readonly.prepare('SELECT x FROM t').all()).toEqual([{ x: 'kept' }]);
    expect(() => readonly.exec('CREATE TABLE u (x)')).toThrow(/readonly/);
    readonly.close();
  });

  it('reports a lock held elsewhere as SQLITE_BUSY, and the capture lock turns it into db_locked', () => {
    const file = tempFile();
    const holder = openSqlite(file);
    holder.exec('BEGIN EXCLUSIVE');
    const other = openSqlite(file, { timeout: 0 });
    let caught: unknown;
    try {
      other.prepare('SELECT 1 FROM sqlite_master').get();
    } catch (err) {
      caught = err;
    }
    expect(isSqliteBusy(caught)).toBe(true);
    expect(isSqliteBusy(new Error('something else'))).toBe(false);
    other.close();
    holder.exec('COMMIT');
    holder.close();

    const lock = CaptureFileLock.take(file);
    expect(() => CaptureFileLock.take(file)).toThrow(InspectorError);
    expect(() => CaptureFileLock.take(file)).toThrow(/in use by another mcpscope/);
    lock.release();
    CaptureFileLock.take(file).release();
  });

  it('checkpoints a capture file’s WAL on the capture engine’s worker, with the same driver', async () => {
    const file = tempFile();
    const store = new CaptureStore(file);
    store.db.pragma('wal_autocheckpoint = 0'); // only the worker moves pages into the main file
    const frames = Array.from({ length: 500 }, (_, i) => ({ seq: i + 1, ts: i, sessionKey: 's', direction: 'c2s' as const, transport: 'http-json' as const, kind: 'data' as const, raw: 'x'.repeat(1000) }));
    store.write({ frames, exchanges: [], sessions: [], diagnostics: [], conversations: [] });
    const before = statSync(file).size;
    expect(existsSync(`${file}-wal`)).toBe(true);
    const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'worker' });
    try {
      // Polled with a generous deadline: what is asserted is that it happens, not how fast.
      // The checkpoint extends the file as it copies pages: wait for all of them, not the first.
      const deadline = Date.now() + 30_000;
      const copied = () => statSync(file).size > before + 400 * 1000;
      while (!copied() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(statSync(file).size).toBeGreaterThan(before + 400 * 1000);
    } finally {
      pipeline.close();
      store.close();
    }
  });
});
