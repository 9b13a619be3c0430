/**
 * Numbered, forward-only schema migrations, tracked in SQLite's `user_version`.
 * `frames` is the append-only evidence; every other table is derived and can be rebuilt from it.
 */
import type { SqliteDatabase } from './sqlite.js';
import { InspectorError } from '../core/errors.js';

export const MIGRATIONS: readonly string[] = [
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
  // 2: columns the API filters on (so filters use indexes instead of parsing JSON), frame sizes
  // for --max-bytes, the diagnostics table, which frames belong to which exchange (for filtered
  // frame pages), and a small key/value table (retention counters).
  `
  ALTER TABLE frames ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
  UPDATE frames SET bytes = length(CAST(raw AS BLOB));
  ALTER TABLE exchanges ADD COLUMN kind TEXT NOT NULL DEFAULT 'request';
  ALTER TABLE exchanges ADD COLUMN requester TEXT NOT NULL DEFAULT 'none';
  ALTER TABLE exchanges ADD COLUMN target TEXT;
  ALTER TABLE exchanges ADD COLUMN latency_ms REAL;
  ALTER TABLE exchanges ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE exchanges ADD COLUMN error_code INTEGER;
  ALTER TABLE exchanges ADD COLUMN diagnostics INTEGER NOT NULL DEFAULT 0;
  UPDATE exchanges SET
    kind = json_extract(summary, '$.kind'),
    requester = json_extract(summary, '$.requester'),
    target = json_extract(summary, '$.target'),
    latency_ms = json_extract(summary, '$.latencyMs'),
    size = json_extract(summary, '$.size'),
    error_code = json_extract(summary, '$.errorCode'),
    diagnostics = json_extract(summary, '$.diagnostics');
  CREATE INDEX exchanges_by_method ON exchanges(method, sort_key);
  CREATE INDEX exchanges_by_session ON exchanges(session_key, sort_key);
  CREATE INDEX exchanges_by_target ON exchanges(target, sort_key);
  CREATE TABLE diagnostics (
    id INTEGER PRIMARY KEY,
    frame_seq INTEGER NOT NULL,
    exchange_id TEXT,
    code TEXT NOT NULL,
    severity TEXT NOT NULL,
    message TEXT NOT NULL,
    path TEXT
  );
  CREATE INDEX diagnostics_by_exchange ON diagnostics(exchange_id);
  CREATE INDEX diagnostics_by_frame ON diagnostics(frame_seq);
  CREATE TABLE frame_exchanges (
    frame_seq INTEGER NOT NULL,
    exchange_id TEXT NOT NULL,
    PRIMARY KEY (frame_seq, exchange_id)
  ) WITHOUT ROWID;
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  );
  `,
  // 3: replay links (capture/replay-links.ts): which exchange replays which. Not derived, so a
  // rebuild keeps them. Files from before this migration may already hold the table (replay used
  // to create it on start), hence IF NOT EXISTS; their replays' summaries get `replayOf` here.
  `
  CREATE TABLE IF NOT EXISTS replay_links (
    exchange_id TEXT PRIMARY KEY,
    replay_of TEXT NOT NULL,
    mode TEXT NOT NULL,
    ts REAL NOT NULL
  );
  CREATE INDEX IF NOT EXISTS replay_links_by_original ON replay_links(replay_of);
  UPDATE exchanges SET summary = json_set(summary, '$.replayOf', (SELECT replay_of FROM replay_links WHERE exchange_id = exchanges.id))
    WHERE id IN (SELECT exchange_id FROM replay_links);
  `,
  // 4: the deriver's state as of frame `seq` (one row), so opening a file restores it and replays
  // only the frames after `seq` instead of every frame. Derived like the rest: a file without it,
  // or with one of another `version`, is warmed by replaying frames.
  `
  CREATE TABLE deriver_snapshot (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
  );
  `,
  // 5: conversations above sessions (derived), the conversation each session belongs to and the
  // one each session-less exchange joined (so conversation:KEY filters use indexes), and the
  // per-file key that salts credential fingerprints (not derived, never exported). Files from
  // before this migration show conversations after \`mcpscope rebuild\`.
  `
  CREATE TABLE conversations (
    key TEXT PRIMARY KEY,
    first_ts REAL NOT NULL,
    last_ts REAL NOT NULL,
    members INTEGER NOT NULL,
    updated_seq INTEGER NOT NULL,
    summary TEXT NOT NULL
  );
  CREATE INDEX conversations_by_start ON conversations(first_ts);
  ALTER TABLE sessions ADD COLUMN conversation_key TEXT;
  CREATE INDEX sessions_by_conversation ON sessions(conversation_key);
  ALTER TABLE exchanges ADD COLUMN conversation_key TEXT;
  CREATE INDEX exchanges_by_conversation ON exchanges(conversation_key, sort_key);
  CREATE TABLE capture_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 6: door records (capture/door-table.ts): every HTTP request the tap received, on any path.
  // Evidence like frames (written by the tap, secrets already redacted), but a record is updated
  // while its answer streams: `rev` orders those writes for resuming dashboards. `record` is the
  // whole DoorRecord as JSON; the other columns are what filters read. `probe` is derived from the
  // record (the classifier may change), so a rebuild recomputes it. Only `rev` is indexed (the
  // WebSocket catch-up): a filtered page walks ids and tests columns, which is quick at the sizes
  // retention allows, and every index would cost each MCP request a write.
  `
  CREATE TABLE door_requests (
    id INTEGER PRIMARY KEY,
    rev INTEGER NOT NULL,
    ts REAL NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER,
    probe INTEGER NOT NULL DEFAULT 0,
    session_key TEXT,
    user_agent TEXT,
    end_ms REAL,
    bytes INTEGER NOT NULL DEFAULT 0,
    record TEXT NOT NULL
  );
  CREATE UNIQUE INDEX door_requests_by_rev ON door_requests(rev);
  `,
  // 7: marks in the timeline (capture/marks-table.ts): labels the user dropped, and where capture
  // was paused and resumed from the dashboard. Not derived (a rebuild keeps them); `after_seq`
  // places each after the newest frame stored when it was made.
  `
  CREATE TABLE marks (
    id INTEGER PRIMARY KEY,
    ts REAL NOT NULL,
    after_seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    label TEXT NOT NULL
  );
  `,
  // 8: a large frame's text in pieces (large-writer.ts): `frames.raw` holds the first piece and
  // `frames.parts` says how many follow in `frame_parts`; the reader joins them (capture-reader.ts).
  // SQLite copies a bound value twice (the binding, then the row it builds), so one 50 MB row cost
  // over 100 MB of memory for the write alone; a piece costs that much of a megabyte. Pieces go
  // with their frame (retention deletes frames only).
  `
  ALTER TABLE frames ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE frame_parts (
    seq INTEGER NOT NULL,
    part INTEGER NOT NULL,
    raw TEXT NOT NULL,
    PRIMARY KEY (seq, part)
  ) WITHOUT ROWID;
  CREATE TRIGGER frame_parts_go_with_frame AFTER DELETE ON frames WHEN old.parts > 0
  BEGIN DELETE FROM frame_parts WHERE seq = old.seq; END;
  `,
  // 9: the sessions a client ended (a DELETE the server accepted), found without scanning every
  // HTTP request: session summaries read `ended` from these records (capture-reader.ts).
  `
  CREATE INDEX door_requests_ended ON door_requests(id) WHERE method = 'DELETE' AND status BETWEEN 200 AND 299;
  `,
  // 10: the credential-fingerprint key leaves the file (it lives beside it, compose/fingerprint-key.ts):
  // stored with the fingerprints, it let anyone holding the file check guessed credentials
  // against them. secure_delete zeroes the freed pages, so the key's bytes do not stay behind.
  // Fingerprints already stored were taken under the old key and never equal new ones: traffic
  // after the upgrade starts new conversations rather than joining ones recorded before.
  `
  PRAGMA secure_delete = ON;
  DELETE FROM capture_keys;
  DROP TABLE capture_keys;
  PRAGMA secure_delete = OFF;
  `,
  // 11: intercept rules (intercept-tables.ts): the rule set saved with the capture, and each
  // intervention: the frame a rule made or changed, the original beside it, and the client's
  // reaction. Not derived (a rebuild keeps them): nothing in the frames says what was replaced.
  `
  CREATE TABLE intercept_rules (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    hits INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE interventions (
    id INTEGER PRIMARY KEY,
    ts REAL NOT NULL,
    rule_id TEXT NOT NULL,
    rule_text TEXT NOT NULL,
    action TEXT NOT NULL,
    session_key TEXT NOT NULL,
    request_seq INTEGER NOT NULL,
    delivered_seq INTEGER NOT NULL,
    original TEXT,
    note TEXT NOT NULL,
    reaction TEXT
  );
  CREATE INDEX interventions_by_request ON interventions(request_seq);
  `,
  // 12: templates (templates.ts): what frames' `http` and door records repeat (keys, header maps,
  // the values shared from request to request), stored once; a row keeps `[id, ...its own values]`
  // in place of its JSON object. The id is a hash of the text, so a template never changes: the
  // trigger fails a write that would give an id another text. Rows written before keep their JSON;
  // readers read both.
  `
  CREATE TABLE templates (
    id INTEGER PRIMARY KEY,
    text TEXT NOT NULL
  );
  CREATE TRIGGER templates_never_change BEFORE UPDATE ON templates
  BEGIN SELECT RAISE(ABORT, 'template id names another text'); END;
  `,
  // 13: session keys stored once (session-keys.ts): frames, exchanges and door records written
  // from here on hold U+0001 and the key's id in `session_key`. A key stored before that began with
  // U+0001 becomes a reference here, so no stored value reads both as a key and as a reference.
  // Exchange summaries are stored packed from here on too (templates.ts, packExchange). Rows
  // written before keep their keys and their JSON; readers read both.
  `
  CREATE TABLE session_keys (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE
  );
  CREATE TRIGGER session_keys_never_change BEFORE UPDATE ON session_keys
  BEGIN SELECT RAISE(ABORT, 'a session key id names one key'); END;
  INSERT OR IGNORE INTO session_keys (key)
    SELECT session_key FROM frames WHERE session_key >= char(1) AND session_key < char(2)
    UNION SELECT session_key FROM exchanges WHERE session_key >= char(1) AND session_key < char(2)
    UNION SELECT session_key FROM door_requests WHERE session_key >= char(1) AND session_key < char(2);
  UPDATE frames SET session_key = (SELECT char(1) || id FROM session_keys WHERE key = frames.session_key) WHERE session_key >= char(1) AND session_key < char(2);
  UPDATE exchanges SET session_key = (SELECT char(1) || id FROM session_keys WHERE key = exchanges.session_key) WHERE session_key >= char(1) AND session_key < char(2);
  UPDATE door_requests SET session_key = (SELECT char(1) || id FROM session_keys WHERE key = door_requests.session_key) WHERE session_key >= char(1) AND session_key < char(2);
  `,
  // 14: like_decides (text-sql.ts): 1 when SQLite's LIKE decides free text on the frame's text as
  // the matcher does, 0 when it may not; NULL for frames stored before (decided as they were).
  `
  ALTER TABLE frames ADD COLUMN like_decides INTEGER;
  `,
];

/** The tables computed from frames, emptied and refilled by a rebuild. */
export const DERIVED_TABLES = ['exchanges', 'sessions', 'diagnostics', 'frame_exchanges', 'conversations'] as const;

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema from which session keys are stored once (session-keys.ts). */
export const SESSION_KEYS_FROM = 13;

/**
 * The oldest schema read in place, without upgrading (CaptureReader.openFile): a file of schema 11
 * has no templates, and readers read the JSON objects it holds as they read any row not packed.
 */
export const READS_FROM_SCHEMA = 11;

export function migrate(db: SqliteDatabase): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new InspectorError('db_too_new', `this capture file was written by a newer mcpscope (schema ${current}, this one knows ${MIGRATIONS.length})`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
