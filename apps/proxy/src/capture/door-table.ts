/**
 * Door records in the capture file (table door_requests, migration 5): every HTTP request the
 * tap received. Written by the capture pipeline in its tick's transaction — a record is inserted
 * when it first changes and updated while its answer streams, each write with a new `rev` — and
 * read by the API (pages by id, filtered), the live hub (everything after a `rev`) and exports.
 *
 * Filtered pages scan like CaptureQuery's: the SQL pushdown narrows, the door matcher decides, and
 * a scan that runs long returns what it found with a cursor instead of stalling the tap.
 */
import type { SqliteDatabase, SqliteStatement } from './sqlite.js';
import { compileDoorFilter, probeReason, type DoorRecord, type Filter } from '@mcpscope/protocol';
import { doorFilterToSql } from './door-filter-sql.js';
import type { SqlFilter } from './filter-sql.js';
import type { TemplateReader } from './templates.js';
import type { SessionKeyReader } from './session-keys.js';

const SCAN_TIME_MS = 100;

export interface DoorPage {
  requests: DoorRecord[];
  /** Pass as `after` to read on; absent when the scan reached the newest record. */
  nextAfter?: number;
}

interface DoorRow {
  record: string;
}

export class DoorTable {
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly templates: TemplateReader,
    private readonly sessionKeys: SessionKeyReader,
  ) {}

  private stmt(sql: string): SqliteStatement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** The highest id and rev stored (0 when empty). */
  heads(): { id: number; rev: number } {
    // One MAX per SELECT: SQLite answers a lone MAX from the end of an index, but two in one
    // SELECT walk the whole rev index (a million records: every one read at each start).
    const row = this.stmt('SELECT COALESCE((SELECT MAX(id) FROM door_requests), 0) AS id, COALESCE((SELECT MAX(rev) FROM door_requests), 0) AS rev').get() as { id: number; rev: number };
    return row;
  }

  /** Records with id > `after`, oldest first, that the filter keeps. */
  page(filter: Filter | null, after: number, limit: number, scanTimeMs = SCAN_TIME_MS): DoorPage {
    const pushed = doorFilterToSql(filter);
    const match = pushed?.exact || filter === null ? undefined : compileDoorFilter(filter);
    const statement = this.stmt(`SELECT record FROM door_requests WHERE id > ?${pushed ? ` AND (${pushed.sql})` : ''} ORDER BY id LIMIT ?`);
    const out: DoorRecord[] = [];
    const started = performance.now();
    let seen = 0;
    for (const row of statement.iterate(after, ...(pushed?.params ?? []), match ? -1 : limit + 1) as Iterable<DoorRow>) {
      const record = this.record(row.record);
      if (!match || match(record)) {
        if (out.length === limit) return { requests: out, nextAfter: out[limit - 1]!.id };
        out.push(record);
      }
      if (match && (++seen & 255) === 0 && performance.now() - started > scanTimeMs) return { requests: out, nextAfter: record.id };
    }
    return { requests: out };
  }

  /** Records with id > `afterId` the filter keeps, and the table's highest id, in one snapshot. */
  countAbove(pushed: SqlFilter | undefined, afterId: number): { n: number; last: number } {
    const row = this.stmt(`SELECT (SELECT count(*) FROM door_requests WHERE id > ?${pushed ? ` AND (${pushed.sql})` : ''}) AS n, COALESCE((SELECT MAX(id) FROM door_requests), 0) AS last`).get(afterId, ...(pushed?.params ?? [])) as { n: number; last: number };
    return row;
  }

  /**
   * Positions in the list a pushed-down filter keeps (`undefined`: every record), oldest first,
   * read by id alone (door-window.ts reads the records through `get`).
   */
  countKept(pushed: SqlFilter | undefined, belowId: number): number {
    return (this.stmt(`SELECT count(*) AS n FROM door_requests WHERE id < ?${pushed ? ` AND (${pushed.sql})` : ''}`).get(belowId, ...(pushed?.params ?? [])) as { n: number }).n;
  }

  /**
   * Ids at positions `[offset, offset + limit)` of the list a pushed-down filter keeps; with
   * `newestFirst`, positions counted from the newest record and ids newest first.
   */
  idsKept(pushed: SqlFilter | undefined, offset: number, limit: number, newestFirst = false): number[] {
    const rows = this.stmt(`SELECT id FROM door_requests${pushed ? ` WHERE (${pushed.sql})` : ''} ORDER BY id${newestFirst ? ' DESC' : ''} LIMIT ? OFFSET ?`).all(...(pushed?.params ?? []), limit, offset) as { id: number }[];
    return rows.map((r) => r.id);
  }

  /** Whether record `id` exists and a pushed-down filter keeps it. */
  keeps(pushed: SqlFilter | undefined, id: number): boolean {
    return this.stmt(`SELECT 1 FROM door_requests WHERE id = ?${pushed ? ` AND (${pushed.sql})` : ''}`).get(id, ...(pushed?.params ?? [])) !== undefined;
  }

  /**
   * Records of refused requests (one per Host and Origin pair, with its count and latest samples:
   * door/refusal-tally.ts), newest first. The guard answers 403, which narrows the scan.
   */
  refused(limit: number): DoorRecord[] {
    const out: DoorRecord[] = [];
    for (const row of this.stmt('SELECT record FROM door_requests WHERE status = 403 ORDER BY id DESC').iterate() as Iterable<DoorRow>) {
      const record = this.record(row.record);
      if (record.answer !== 'refused') continue;
      out.push(record);
      if (out.length === limit) break;
    }
    return out;
  }

  get(id: number): DoorRecord | undefined {
    const row = this.stmt('SELECT record FROM door_requests WHERE id = ?').get(id) as DoorRow | undefined;
    return row ? this.record(row.record) : undefined;
  }

  /** Records written after `rev`, in write order, as JSON text (for WebSocket catch-up). */
  updatedAfter(rev: number, limit: number): string[] {
    return (this.stmt('SELECT record FROM door_requests WHERE rev > ? ORDER BY rev LIMIT ?').all(rev, limit) as DoorRow[]).map((r) => this.templates.text(r.record));
  }

  /** Every record in arrival order, a page at a time (exports). */
  *all(chunk = 500): Generator<DoorRecord> {
    let after = 0;
    for (;;) {
      const rows = this.stmt('SELECT id, record FROM door_requests WHERE id > ? ORDER BY id LIMIT ?').all(after, chunk) as (DoorRow & { id: number })[];
      for (const row of rows) yield this.record(row.record);
      if (rows.length < chunk) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** A stored record (packed, or its JSON) as it was written. */
  private record(text: string): DoorRecord {
    return this.templates.read<DoorRecord>(text);
  }

  /**
   * The sessions clients ended (CaptureReader.endedSessionKeys): a DELETE the server accepted. No
   * frame rides on a DELETE, so its record names the session by its header (`mcpSessionId`). A
   * partial index keeps it a lookup (migration 9).
   */
  endedSessionKeys(): Set<string> {
    const out = new Set<string>();
    const rows = this.stmt("SELECT session_key, record FROM door_requests WHERE method = 'DELETE' AND status BETWEEN 200 AND 299").all() as { session_key: string | null; record: string }[];
    for (const r of rows) {
      const key = this.sessionKeys.key(r.session_key) ?? this.record(r.record).mcpSessionId;
      if (key !== undefined) out.add(key);
    }
    return out;
  }

  count(): number {
    return (this.stmt('SELECT COUNT(*) AS n FROM door_requests').get() as { n: number }).n;
  }

  /**
   * Retention: keeps at most `maxRecords` (the newest) and, when frames were trimmed, none older
   * than the oldest frame kept. Returns how many were removed.
   */
  trim(maxRecords: number | undefined, olderThanTs: number | undefined): number {
    let removed = 0;
    if (olderThanTs !== undefined) removed += this.stmt('DELETE FROM door_requests WHERE ts < ?').run(olderThanTs).changes as number;
    if (maxRecords !== undefined) {
      const row = this.stmt('SELECT id FROM door_requests ORDER BY id DESC LIMIT 1 OFFSET ?').get(maxRecords) as { id: number } | undefined;
      if (row) removed += this.stmt('DELETE FROM door_requests WHERE id <= ?').run(row.id).changes as number;
    }
    return removed;
  }

  /** Recomputes the derived column (`probe`) from each stored record, for a rebuild. */
  rederive(): number {
    const update = this.stmt('UPDATE door_requests SET probe = ? WHERE id = ?');
    let n = 0;
    for (const record of [...this.all()]) {
      update.run(probeReason(record) ? 1 : 0, record.id);
      n++;
    }
    return n;
  }
}
