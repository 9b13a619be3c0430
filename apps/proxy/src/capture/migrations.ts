/**
 * Numbered, forward-only schema migrations, tracked in SQLite's `user_version`.
 * `frames` is the append-only evidence; every other table is derived and can be rebuilt from it.
 */
import type Database from 'better-sqlite3';

const MIGRATIONS: readonly string[] = [
  // 1: frames (raw evidence) and the derived exchanges and sessions.
  `
  CREATE TABLE frames (
    seq INTEGER PRIMARY KEY,
    ts REAL NOT NULL,
    session_key TEXT NOT NULL,
    direction TEXT NOT NULL,
    transport TEXT NOT NULL,
    kind TEXT NOT NULL,
    raw TEXT NOT NULL,
    http TEXT
  );
  CREATE INDEX frames_by_session ON frames(session_key, seq);
  CREATE TABLE exchanges (
    id TEXT PRIMARY KEY,
    sort_key REAL NOT NULL,
    session_key TEXT NOT NULL,
    status TEXT NOT NULL,
    method TEXT,
    updated_seq INTEGER NOT NULL,
    summary TEXT NOT NULL
  );
  CREATE INDEX exchanges_by_order ON exchanges(sort_key);
  CREATE INDEX exchanges_by_status ON exchanges(status, sort_key);
  CREATE INDEX exchanges_by_update ON exchanges(updated_seq);
  CREATE TABLE sessions (
    session_key TEXT PRIMARY KEY,
    last_ts REAL NOT NULL,
    summary TEXT NOT NULL
  );
  `,
];

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`this capture file was written by a newer mcpscope (schema ${current}, this one knows ${MIGRATIONS.length})`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
