/**
 * One (Node, SQLite driver) pair of bench/sqlite-drivers.ts, measured in its own process (the
 * parent runs it under each Node binary). Prints one JSON line: rates per round.
 *
 * The one-table rows drive each driver directly with the same code shape mcpscope uses: prepared
 * statements, positional parameters, one transaction per 256-row tick (better-sqlite3's
 * `transaction()`, and for node:sqlite prepared BEGIN/COMMIT as capture/sqlite.ts does). The
 * pipeline row (only for the driver mcpscope itself picks on this Node) runs the real
 * CaptureStore and CapturePipeline through capture/sqlite.ts, as the store-ingest bench does.
 *
 * argv: driver ('better-sqlite3' | 'node:sqlite'), rows, rounds; env BETTER_SQLITE3 = the
 * better-sqlite3 entry point built for this Node; PIPELINE=1 adds the pipeline row.
 */
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { frameInput, tempDb } from '../store-common.js';

interface Stmt {
  run(...p: unknown[]): unknown;
  get(...p: unknown[]): unknown;
  all(...p: unknown[]): unknown[];
}
interface Driver {
  version: string;
  prepare(sql: string): Stmt;
  exec(sql: string): void;
  tx<A extends unknown[]>(fn: (...a: A) => void): (...a: A) => void;
  fn(name: string, f: (a: unknown, b: unknown) => number): void;
  close(): void;
}

const [driverName, rowsArg, roundsArg] = process.argv.slice(2) as [string, string, string];
const ROWS = Number(rowsArg);
const ROUNDS = Number(roundsArg);
const TICK = 256;
const require = createRequire(import.meta.url);

function open(file: string): Driver {
  if (driverName === 'better-sqlite3') {
    type Db = Stmt & { prepare(s: string): Stmt; exec(s: string): void; transaction<F>(f: F): F; function(n: string, o: object, f: unknown): void; close(): void; pragma(s: string, o?: object): unknown };
    const Database = require(process.env.BETTER_SQLITE3!) as new (f: string) => Db;
    const db = new Database(file);
    return {
      version: db.prepare('SELECT sqlite_version() AS v').get() as never,
      prepare: (s) => db.prepare(s),
      exec: (s) => db.exec(s),
      tx: (f) => db.transaction(f),
      fn: (n, f) => db.function(n, { deterministic: true }, f),
      close: () => db.close(),
    };
  }
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite' as never) as { DatabaseSync: new (f: string) => Stmt & { prepare(s: string): Stmt; exec(s: string): void; function(n: string, o: object, f: unknown): void; close(): void } };
  const db = new DatabaseSync(file);
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  return {
    version: db.prepare('SELECT sqlite_version() AS v').get() as never,
    prepare: (s) => db.prepare(s),
    exec: (s) => db.exec(s),
    tx:
      (f) =>
      (...a) => {
        begin.run();
        f(...a);
        commit.run();
      },
    fn: (n, f) => db.function(n, { deterministic: true }, f),
    close: () => db.close(),
  };
}

const rate = (count: number, started: number) => count / ((performance.now() - started) / 1000);

function round(): { sqlite: string; ingest: number; point: number; page: number; index: number; scan: number } {
  const file = tempDb('driver');
  const db = open(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
  db.exec('CREATE TABLE frames (seq INTEGER PRIMARY KEY, ts REAL NOT NULL, session_key TEXT NOT NULL, direction TEXT NOT NULL, kind TEXT NOT NULL, raw TEXT NOT NULL, http TEXT)');
  db.exec('CREATE INDEX frames_by_session ON frames(session_key, seq)');
  const insert = db.prepare('INSERT INTO frames VALUES (?, ?, ?, ?, ?, ?, ?)');
  const write = db.tx((batch: ReturnType<typeof frameInput>[], first: number) => {
    for (let i = 0; i < batch.length; i++) {
      const f = batch[i]!;
      insert.run(first + i, f.ts, f.sessionKey, f.direction, f.kind, f.raw, f.http ? JSON.stringify(f.http) : null);
    }
  });
  const inputs = Array.from({ length: ROWS }, (_, n) => frameInput(n));
  let started = performance.now();
  for (let n = 0; n < ROWS; n += TICK) write(inputs.slice(n, n + TICK), n + 1);
  const ingest = rate(ROWS, started);

  const point = db.prepare('SELECT * FROM frames WHERE seq = ?');
  const lookups = Math.min(ROWS, 20_000);
  started = performance.now();
  for (let i = 0; i < lookups; i++) point.get(((i * 7919) % ROWS) + 1);
  const pointRate = rate(lookups, started);

  const page = db.prepare('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT 100');
  let rows = 0;
  started = performance.now();
  for (let after = 0; after < ROWS; after += 100) rows += page.all(after).length;
  const pageRate = rate(rows, started);

  const bySession = db.prepare('SELECT * FROM frames WHERE session_key = ? ORDER BY seq DESC LIMIT 100');
  rows = 0;
  started = performance.now();
  for (let i = 0; i < 200; i++) rows += bySession.all(`session-${(i % 20).toString().padStart(2, '0')}-${'f'.repeat(24)}`).length;
  const indexRate = rate(rows, started);

  // The free-text filter's shape: a JS function called once per row from SQL.
  db.fn('icontains', (h, n) => (typeof h === 'string' && typeof n === 'string' && h.toLowerCase().includes(n) ? 1 : 0));
  const scan = db.prepare('SELECT count(*) AS n FROM frames WHERE icontains(raw, ?)');
  started = performance.now();
  scan.get('weather');
  const scanRate = rate(ROWS, started);

  const sqlite = (db.version as unknown as { v: string }).v;
  db.close();
  rmSync(dirname(file), { recursive: true, force: true });
  return { sqlite, ingest, point: pointRate, page: pageRate, index: indexRate, scan: scanRate };
}

async function pipelineRound(): Promise<number> {
  const { CaptureStore, CapturePipeline } = await import('@mcpscope/proxy/capture');
  const file = tempDb('driver-pipeline');
  const store = new CaptureStore(file);
  const pipeline = new CapturePipeline(store);
  const started = performance.now();
  for (let n = 0; n < ROWS; n++) {
    pipeline.record(frameInput(n, 150));
    if (n % TICK === TICK - 1) pipeline.flush();
  }
  pipeline.flush();
  const r = rate(ROWS, started);
  store.close();
  rmSync(dirname(file), { recursive: true, force: true });
  return r;
}

const out: Record<string, number[]> = {};
let sqlite = '';
for (let r = 0; r < ROUNDS; r++) {
  const { sqlite: v, ...rates } = round();
  sqlite = v;
  for (const [k, value] of Object.entries(rates)) (out[k] ??= []).push(value);
  if (process.env.PIPELINE === '1') (out.pipeline ??= []).push(await pipelineRound());
}
console.log(JSON.stringify({ node: process.version, driver: driverName, sqlite, rates: out }));
