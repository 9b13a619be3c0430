/**
 * The one door to SQLite: every connection the proxy opens (the store, the file lock, the capture
 * engine's worker, the large-frame writer's, a read-only export) comes from `openSqlite`, through one of two drivers.
 *
 * - `node:sqlite`, built into Node from 22.16 (the first release with every piece used here:
 *   `function()`, `timeout`, `isTransaction`). Nothing to compile or download, so `npx mcpscope`
 *   installs on any platform Node runs on. Preferred wherever it exists (see bench/sqlite-drivers.ts
 *   and bench/README.md for the measurements behind that choice).
 * - `better-sqlite3`, a native addon: the only driver on Node 20, and the fallback on a Node whose
 *   `node:sqlite` lacks those pieces. The published package gets it through its optional
 *   dependency `@mcpscope/sqlite-addon` (release/sqlite-addon.ts), which npm installs only on
 *   those Nodes; npm hoists better-sqlite3 beside mcpscope, and a package manager that does not
 *   hoist leaves it where the companion alone can resolve it, so it is looked up there too.
 *   It loads only if it was built for this Node's ABI; a copy built for another version is
 *   treated as absent, never as a crash.
 *
 * `MCPSCOPE_SQLITE=node|better-sqlite3` pins a driver (benchmarks, and users who want one).
 *
 * The interface is better-sqlite3's, narrowed to what mcpscope uses, so a better-sqlite3 handle is
 * returned as it is (no wrapper on the hot path) and node:sqlite's statements already match it;
 * only the database object of node:sqlite gets a thin wrapper (`pragma`, `transaction`, `open`).
 * Both drivers link their own SQLite 3.4x/3.5x with WAL, JSON and foreign keys on, and both bind
 * a JS number as a double, so the same SQL gives the same rows. One difference stays visible:
 * node:sqlite refuses to read an INTEGER beyond 2^53 (better-sqlite3 rounds it); no column mcpscope
 * reads back can hold one (seq, sizes and counts are its own; error codes are written, never read).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { InspectorError } from '../core/errors.js';

export interface SqliteRunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

export interface SqliteStatement {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface SqliteDatabase {
  readonly open: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  /** `PRAGMA source`: every row, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** `fn` as one transaction (a savepoint when nested), rolled back if it throws. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  function(name: string, options: { deterministic?: boolean }, fn: (...args: never[]) => unknown): unknown;
  close(): unknown;
}

export interface OpenOptions {
  readonly?: boolean;
  /** Fail instead of creating the file (always the case when `readonly`). */
  fileMustExist?: boolean;
  /** Milliseconds to wait for a lock another connection holds (0: fail at once with SQLITE_BUSY). */
  timeout?: number;
}

export type SqliteDriver = 'node:sqlite' | 'better-sqlite3';

/** node:sqlite's surface as used here (the workspace's @types/node is Node 20's, without it). */
interface NodeDatabaseSync {
  readonly isOpen: boolean;
  readonly isTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  function(name: string, options: { deterministic?: boolean }, fn: (...args: never[]) => unknown): void;
  close(): void;
}
type NodeDatabaseSyncClass = new (
  file: string,
  options: { readOnly?: boolean; timeout?: number; open?: boolean },
) => NodeDatabaseSync;

type BetterSqlite3Class = new (file: string, options: { readonly?: boolean; fileMustExist?: boolean; timeout?: number }) => SqliteDatabase;

const require = createRequire(import.meta.url);

let chosen: { driver: 'node:sqlite'; DatabaseSync: NodeDatabaseSyncClass } | { driver: 'better-sqlite3'; Database: BetterSqlite3Class; path: string } | undefined;

/** node:sqlite's DatabaseSync, when this Node has one with everything used here. */
function loadNodeSqlite(): NodeDatabaseSyncClass | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 16) || (major === 23 && minor < 10)) return undefined;
  // Some releases announce the module as experimental on first load; that line would sit in the
  // middle of mcpscope's banner and says nothing the user can act on.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning instanceof Error ? warning.message : warning).startsWith('SQLite is an experimental')) {
      (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
    }
  }) as typeof process.emitWarning;
  try {
    const sqlite = process.getBuiltinModule('node:sqlite') as { DatabaseSync?: NodeDatabaseSyncClass } | undefined;
    return sqlite?.DatabaseSync;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Where better-sqlite3 is: resolvable from here, else from the companion package's directory. */
function resolveBetterSqlite3(): string {
  try {
    return require.resolve('better-sqlite3');
  } catch (err) {
    let companion: string;
    try {
      companion = require.resolve('@mcpscope/sqlite-addon/package.json');
    } catch {
      throw err;
    }
    return require.resolve('better-sqlite3', { paths: [dirname(companion)] });
  }
}

/** better-sqlite3 when it is installed and built for this Node's ABI. */
function loadBetterSqlite3(): { Database: BetterSqlite3Class; path: string } | { error: string } {
  try {
    const path = resolveBetterSqlite3();
    const Database = require(path) as BetterSqlite3Class;
    // The addon itself loads on first use: open once so an ABI mismatch shows here.
    new Database(':memory:', {}).close();
    return { Database, path };
  } catch (err) {
    return { error: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
}

function choose(): NonNullable<typeof chosen> {
  if (chosen) return chosen;
  const wanted = process.env.MCPSCOPE_SQLITE;
  if (wanted !== undefined && wanted !== '' && wanted !== 'node' && wanted !== 'better-sqlite3') {
    throw new InspectorError('sqlite_unavailable', `MCPSCOPE_SQLITE must be "node" or "better-sqlite3", not "${wanted}"`);
  }
  if (wanted !== 'better-sqlite3') {
    const DatabaseSync = loadNodeSqlite();
    if (DatabaseSync) return (chosen = { driver: 'node:sqlite', DatabaseSync });
    if (wanted === 'node') throw new InspectorError('sqlite_unavailable', `MCPSCOPE_SQLITE=node needs Node 22.16 or later (this is ${process.version})`);
  }
  const better = loadBetterSqlite3();
  if ('Database' in better) return (chosen = { driver: 'better-sqlite3', ...better });
  throw new InspectorError(
    'sqlite_unavailable',
    `no SQLite driver: Node 22.16 or later has one built in (this is ${process.version}); older Nodes need better-sqlite3 ` +
      `(from mcpscope's optional dependency @mcpscope/sqlite-addon), built for this Node, which did not load (${better.error}). Use Node 22.16 or later, ` +
      `or reinstall mcpscope where better-sqlite3's install script can run (it downloads or compiles the addon).`,
  );
}

/** The driver connections are opened with (chosen once per process). */
export function sqliteDriver(): SqliteDriver {
  return choose().driver;
}

export function openSqlite(file: string, options: OpenOptions = {}): SqliteDatabase {
  const c = choose();
  const timeout = options.timeout ?? 5000;
  if (c.driver === 'better-sqlite3') {
    return new c.Database(file, { readonly: options.readonly ?? false, fileMustExist: options.fileMustExist ?? false, timeout });
  }
  if ((options.readonly || options.fileMustExist) && file !== ':memory:' && !fileExists(file)) {
    // The wording better-sqlite3 uses, so callers see one error whichever driver runs.
    throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
  }
  return new NodeSqliteDatabase(new c.DatabaseSync(file, { readOnly: options.readonly ?? false, timeout }));
}

/** SQLITE_BUSY from either driver (better-sqlite3 names the code; node:sqlite numbers it). */
export function isSqliteBusy(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown };
  return e.code === 'SQLITE_BUSY' || (typeof e.errcode === 'number' && (e.errcode & 0xff) === 5);
}

function fileExists(file: string): boolean {
  return existsSync(file.startsWith('file:') ? new URL(file) : file);
}

/** node:sqlite's DatabaseSync with better-sqlite3's `open`, `pragma` and `transaction`. */
class NodeSqliteDatabase implements SqliteDatabase {
  private savepoints = 0;

  constructor(private readonly db: NodeDatabaseSync) {}

  get open(): boolean {
    return this.db.isOpen;
  }

  prepare(sql: string): SqliteStatement {
    return this.db.prepare(sql);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = this.db.prepare(`PRAGMA ${source}`).all() as Record<string, unknown>[];
    if (!options.simple) return rows;
    const first = rows[0];
    return first === undefined ? undefined : Object.values(first)[0];
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    const db = this.db;
    const begin = db.prepare('BEGIN');
    const commit = db.prepare('COMMIT');
    const rollback = db.prepare('ROLLBACK');
    return (...args: A): R => {
      if (db.isTransaction) return this.nested(fn, args);
      begin.run();
      try {
        const result = fn(...args);
        commit.run();
        return result;
      } catch (err) {
        // SQLite may have rolled back already (some errors end the transaction themselves).
        if (db.isTransaction) rollback.run();
        throw err;
      }
    };
  }

  private nested<A extends unknown[], R>(fn: (...args: A) => R, args: A): R {
    const name = `mcpscope_sp${++this.savepoints}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn(...args);
      this.db.exec(`RELEASE ${name}`);
      return result;
    } catch (err) {
      if (this.db.isTransaction) this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw err;
    } finally {
      this.savepoints--;
    }
  }

  function(name: string, options: { deterministic?: boolean }, fn: (...args: never[]) => unknown): void {
    this.db.function(name, options, fn);
  }

  close(): void {
    this.db.close();
  }
}
