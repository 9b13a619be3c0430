/**
 * Session keys stored once (table session_keys, migration 13). A frame, an exchange and a door
 * record repeat their session's key (a UUID, ~36 bytes) in `session_key`, and the two indexes on it
 * repeat it again; rows written since migration 13 hold a reference in its place: U+0001 followed
 * by the key's id in session_keys (`\u000112`). The writer resolves a key to its reference in SQL
 * (`SESSION_REF`), so no thread needs to know ids; readers turn references back into keys.
 *
 * Invariants:
 * - A stored `session_key` that begins with U+0001 is a reference, any other is the key itself (a
 *   row written before migration 13). Migration 13 turned the keys that began with U+0001 into
 *   references, so no stored value reads both ways.
 * - An id names one key for good: the table is append-only (a trigger fails any update) and
 *   retention and rebuild never delete from it (it holds one short row per session).
 * - A key's frames and exchanges are all in one form: as itself while the key has no id, by
 *   reference from the write that interns it (which gives its older rows the reference:
 *   `SESSION_ADOPT`). Its door records written before keep the key: door SQL matches both forms.
 *   Rows stored as themselves precede those stored by reference in capture order.
 * - SQL here works on files of any schema a reader opens: a file from before migration 13 gets an
 *   empty TEMP session_keys when opened read-only (`CaptureReader.openFile`).
 */
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';

const REF = '\u0001';
/**
 * A key as stored as itself. None begins with U+0001 (a key that does is only stored by
 * reference): for one that does, U+0001 alone, which no stored value equals.
 */
export const asItself = (key: string): string => (key.startsWith(REF) ? REF : key);

/** The reference a key is stored as, from its bound key (NULL for a NULL key). */
export const SESSION_REF = '(SELECT char(1) || id FROM session_keys WHERE key = ?)';

/** Interns a key (the writer's first statement for each key a write names). */
export const SESSION_INTERN = 'INSERT INTO session_keys (key) VALUES (?) ON CONFLICT(key) DO NOTHING';

/**
 * Run when a key is first interned, with its reference's key and the key as stored as itself: its
 * frames and exchanges written before migration 13 take the reference (through their session
 * index, so only that session's rows), and every frame and exchange of a key is in one form.
 */
export const SESSION_ADOPT = [
  `UPDATE frames SET session_key = ${SESSION_REF} WHERE session_key = ?`,
  `UPDATE exchanges SET session_key = ${SESSION_REF} WHERE session_key = ?`,
] as const;


/**
 * SQL: `column` of frames or exchanges (a stored session_key) is `key`'s. One value, so the
 * session index is walked in order: the key's reference once it has one, else the key itself.
 */
export function storedKeyIs(column: string, key: string): { sql: string; params: string[] } {
  return { sql: `${column} = COALESCE(${SESSION_REF}, ?)`, params: [key, asItself(key)] };
}

/** SQL: `column` of door records is `key`'s (door records written before the reference keep the key). */
export function doorKeyIs(column: string, key: string): { sql: string; params: string[] } {
  return { sql: `${column} IN (?, ${SESSION_REF})`, params: [asItself(key), key] };
}

/** SQL: `column` names a key in `[from, to)` (an index range on either form). */
export function storedKeyInRange(column: string, from: string, to: string): { sql: string; params: string[] } {
  // A reference (U+0001…) sorts in `[from, to)` only when `from` is empty (every key is in the
  // range then) or begins with U+0001 (no key is stored as itself then: that range is left empty).
  const self = from.startsWith(REF) ? [REF, REF] : [from, to];
  return { sql: `((${column} >= ? AND ${column} < ?) OR ${column} IN (SELECT char(1) || id FROM session_keys WHERE key >= ? AND key < ?))`, params: [...self, from, to] };
}

/**
 * SQL: `column` names the key of a session that `where` (over the sessions table as `fs`) keeps;
 * `where`'s params twice.
 */
export function storedKeyOfSessions(column: string, where: string): string {
  const notRef = "substr(fs.session_key, 1, 1) <> char(1)";
  return `(${column} IN (SELECT fs.session_key FROM sessions fs WHERE (${where}) AND ${notRef}) OR ${column} IN (SELECT char(1) || sk.id FROM sessions fs JOIN session_keys sk ON sk.key = fs.session_key WHERE ${where}))`;
}

/** SQL: the session key `column` (a stored session_key) names. */
export function keyOfStored(column: string): string {
  return `COALESCE((SELECT sk.key FROM session_keys sk WHERE substr(${column}, 1, 1) = char(1) AND sk.id = CAST(substr(${column}, 2) AS INTEGER)), ${column})`;
}

/** Keys a reader remembers, at most this many (then forgotten and read again). */
const KNOWN_MAX = 65_536;

/** The readers' side: stored values as keys, keys as the values they are stored under. */
export class SessionKeyReader {
  private readonly keys = new Map<string, string>();
  private byId: SqliteStatement | undefined;
  private byKey: SqliteStatement | undefined;

  constructor(private readonly db: SqliteDatabase) {}

  /** The key a stored `session_key` names. */
  key(stored: string): string;
  key(stored: string | null): string | null;
  key(stored: string | null): string | null {
    if (stored === null || stored.charCodeAt(0) !== 1) return stored;
    let key = this.keys.get(stored);
    if (key === undefined) {
      this.byId ??= this.db.prepare('SELECT key FROM session_keys WHERE id = ?');
      const row = this.byId.get(Number(stored.slice(1))) as { key: string } | undefined;
      if (row === undefined) throw new Error(`capture file: session key ${stored.slice(1)} is missing`);
      key = row.key;
      if (this.keys.size >= KNOWN_MAX) this.keys.clear();
      this.keys.set(stored, key);
    }
    return key;
  }

  /**
   * What rows of `key` hold in `session_key`, in capture order: the key itself (unless it begins
   * with U+0001, as only references do), then its reference when it has one.
   */
  storedForms(key: string): string[] {
    this.byKey ??= this.db.prepare('SELECT char(1) || id AS ref FROM session_keys WHERE key = ?');
    const row = this.byKey.get(key) as { ref: string } | undefined;
    const forms = key.startsWith(REF) ? [] : [key];
    if (row !== undefined) forms.push(row.ref);
    return forms;
  }
}
