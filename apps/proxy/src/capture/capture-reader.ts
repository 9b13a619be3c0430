/**
 * The one way to read a capture: frames (cut or whole), exchanges, sessions, diagnostics and
 * replay links, over the live store's connection (the CaptureStore is a reader that also writes)
 * or over a file opened read-only (`mcpscope export`, `mcpscope open`). Every feature that reads
 * the capture (the API, the hub, replay, exports) reads it through this class; SQL stays here.
 *
 * Frames for exports are read in pages keyed by seq, never through an open cursor: an export may
 * be consumed across ticks while the pipeline writes on the same connection, and a page holds only
 * its own rows, so a million-frame JSONL export never holds them all at once.
 */
import { isSqliteBusy, openSqlite, type SqliteDatabase, type SqliteStatement } from './sqlite.js';
import { exchangeOrderKey, FRAME_RAW_LIMIT, toFrameView, type ConversationSummary, type Diagnostic, type DoorRecord, type ExchangeSummary, type Filter, type Frame, type FrameView, type SessionSummary } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';
import { READS_FROM_SCHEMA, SCHEMA_VERSION, SESSION_KEYS_FROM } from './migrations.js';
import { ReplayLinks } from './replay-links.js';
import { DoorTable } from './door-table.js';
import { MarksTable } from './marks-table.js';
import { TemplateReader } from './templates.js';
import { SessionKeyReader } from './session-keys.js';
import type { FrameColumns } from './filter-sql.js';

/** The conversations list's order: the most recently started first, ties by key (the sidebar's order). */
const CONVERSATION_ORDER = 'first_ts DESC, key';

/** A session's start, read from its summary (the sessions table keeps only its latest activity as a column). */
const SESSION_START = "json_extract(summary, '$.firstTs')";

export interface FrameRow {
  seq: number;
  ts: number;
  /** The key, or its reference (session-keys.ts): read through `CaptureReader.toFrame`. */
  session_key: string;
  direction: Frame['direction'];
  transport: Frame['transport'];
  kind: Frame['kind'];
  raw: string;
  http: string | null;
  /** Pieces of the text after `raw`, in `frame_parts` (a large frame; 0 for the others). */
  parts: number;
}

interface DiagnosticRow {
  frame_seq: number;
  exchange_id: string | null;
  code: string;
  severity: Diagnostic['severity'];
  message: string;
  path: string | null;
}

/** Which frames an export or an import of a capture takes. */
export interface Selection {
  /** Only this session (exact key). */
  session?: string;
  /** Only the frames of exchanges that match (evaluated like `GET /api/exchanges?filter=`). */
  filter?: Filter;
  /** Only these exchanges (by id), e.g. one request for curl. */
  exchangeIds?: readonly string[];
}

/** Finds the exchanges that match a filter, newest first, page by page (capture-query.ts). */
export type ExchangeFinder = (filter: Filter, limit: number, before?: number) => { exchanges: ExchangeSummary[]; nextBefore?: number };

const CHUNK = 500;

export class CaptureReader {
  private readonly statements = new Map<string, SqliteStatement>();
  private replayLinkTable: ReplayLinks | undefined;
  /** Door records: every HTTP request the tap received (door-table.ts holds their SQL). */
  readonly door: DoorTable;
  /** Marks in the timeline (marks-table.ts). */
  readonly marks: MarksTable;
  /** Frames' HTTP layers, door records and exchange summaries, stored packed (templates.ts). */
  private readonly templates: TemplateReader;
  /** Session keys stored by reference (session-keys.ts). */
  readonly sessionKeys: SessionKeyReader;
  /** Columns beside each frame's text that a file of an older schema, read in place, lacks. */
  readonly frameColumns: FrameColumns;

  constructor(readonly db: SqliteDatabase) {
    this.templates = new TemplateReader(db);
    this.sessionKeys = new SessionKeyReader(db);
    const columns = db.pragma('table_info(frames)') as { name: string }[];
    this.frameColumns = { likeDecides: columns.some((c) => c.name === 'like_decides') };
    this.door = new DoorTable(db, this.templates, this.sessionKeys);
    this.marks = new MarksTable(db);
    // The free-text filter in SQL, with the matcher's exact semantics (JS lower-casing, which
    // SQLite's lower() does not match outside ASCII).
    db.function('mcpscope_icontains', { deterministic: true }, (haystack: unknown, needle: unknown) =>
      typeof haystack === 'string' && typeof needle === 'string' && haystack.toLowerCase().includes(needle) ? 1 : 0,
    );
  }

  /**
   * Opens a capture file read-only (nothing is ever written to it: an older file is not upgraded,
   * it is refused with what to do). The file is in WAL mode, so another mcpscope may be recording
   * it meanwhile: each query sees what was committed when it ran. SQLite may wait a moment for a
   * writer that is checkpointing; a file still busy after that is `db_locked`.
   */
  static openFile(file: string): CaptureReader {
    const db = openSqlite(file, { readonly: true, fileMustExist: true, timeout: 1000 });
    try {
      db.prepare('SELECT seq FROM frames LIMIT 1').get();
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) throw new InspectorError('db_too_new', `${file} was written by a newer mcpscope (schema ${version}, this one reads up to ${SCHEMA_VERSION}): read it with that mcpscope, or export it there (mcpscope export --db FILE) and open the export here.`);
      if (version < READS_FROM_SCHEMA) {
        throw new InspectorError(
          'db_too_old',
          `${file} was written by an older mcpscope (schema ${version}, this one reads ${READS_FROM_SCHEMA} to ${SCHEMA_VERSION}) and reading never changes a file. ` +
            `Upgrade it once with \`mcpscope rebuild --db ${file}\` (that rewrites it in place: copy it first to keep the original as it is), then open it again.`,
        );
      }
      // A file from before session keys were stored once holds every key as itself: an empty
      // table of references (in TEMP, which a read-only connection may write) lets one SQL read both.
      if (version < SESSION_KEYS_FROM) db.exec('CREATE TEMP TABLE session_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)');
    } catch (err) {
      db.close();
      if (isSqliteBusy(err)) {
        throw new InspectorError('db_locked', `${file} is busy: the mcpscope recording it kept it locked too long (SQLite: ${(err as Error).message}); try again.`);
      }
      throw err;
    }
    return new CaptureReader(db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** A prepared statement, cached by its text (prepare costs more than most reads). */
  stmt(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // IN lists of every arity would grow the cache without end: keep only the first few hundred.
      if (this.statements.size < 256) this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The highest stored seq, 0 for an empty store. */
  head(): number {
    return (this.stmt('SELECT MAX(seq) AS head FROM frames').get() as { head: number | null }).head ?? 0;
  }

  /** The lowest stored seq (retention removes the oldest frames), 0 for an empty store. */
  oldest(): number {
    return (this.stmt('SELECT MIN(seq) AS oldest FROM frames').get() as { oldest: number | null }).oldest ?? 0;
  }

  /** A counter in the meta table (0 when unset). */
  meta(key: string): number {
    return (this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: number } | undefined)?.value ?? 0;
  }

  /** Door records in arrival order (exports); none in a file from before them. */
  requests(): Iterable<DoorRecord> {
    return this.door.all();
  }

  // ── frames ──────────────────────────────────────────────────────────────────────────────────

  /** Frames after `after`, oldest first, bodies cut at `rawLimit`. */
  framesAfter(after: number, limit: number, rawLimit = FRAME_RAW_LIMIT): FrameView[] {
    const rows = this.stmt('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT ?').all(after, limit) as FrameRow[];
    return rows.map((r) => toFrameView(this.toFrame(r), rawLimit));
  }

  /** A stored row as a frame, its text whole (a large frame's pieces joined), its HTTP layer unpacked. */
  toFrame(r: FrameRow): Frame {
    if (r.parts > 0) r.raw = this.wholeText(r.seq, r.raw);
    const frame = toFrame(r, this.sessionKeys.key(r.session_key));
    if (r.http) frame.http = this.templates.read<NonNullable<Frame['http']>>(r.http);
    return frame;
  }

  /** A large frame's text: its first piece (`frames.raw`) and the rest, in order. */
  private wholeText(seq: number, first: string): string {
    const rest = this.stmt('SELECT raw FROM frame_parts WHERE seq = ? ORDER BY part').all(seq) as { raw: string }[];
    return first + rest.map((p) => p.raw).join('');
  }

  /** Whole frames (never cut), oldest first, for re-deriving them. */
  rawFramesAfter(after: number, limit: number): Frame[] {
    const rows = this.stmt('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT ?').all(after, limit) as FrameRow[];
    return rows.map((r) => this.toFrame(r));
  }

  /** Frames by seq, oldest first, bodies cut at `rawLimit` (whole by default), with their sizes. */
  framesBySeq(seqs: readonly number[], rawLimit = Infinity): FrameView[] {
    return this.frameRows(seqs).map((r) => toFrameView(this.toFrame(r), rawLimit));
  }

  /** Whole frames by seq, oldest first, as exports write them. */
  frames(seqs: readonly number[]): Frame[] {
    return this.frameRows(seqs).map((r) => this.toFrame(r));
  }

  /** One frame's raw text, whole (for downloads); undefined when there is no such frame. */
  frameRaw(seq: number): { raw: string; bytes: number } | undefined {
    const row = this.stmt('SELECT raw, bytes, parts FROM frames WHERE seq = ?').get(seq) as { raw: string; bytes: number; parts: number } | undefined;
    return row && { raw: row.parts > 0 ? this.wholeText(seq, row.raw) : row.raw, bytes: row.bytes };
  }

  /** The ids of the exchanges a frame belongs to (usually one). */
  exchangeIdsOfFrame(seq: number): string[] {
    return (this.stmt('SELECT exchange_id FROM frame_exchanges WHERE frame_seq = ?').all(seq) as { exchange_id: string }[]).map((r) => r.exchange_id);
  }

  /** The raw text of several frames joined by newlines (for free-text filters). */
  framesText(seqs: readonly number[]): string {
    if (seqs.length === 0) return '';
    const rows = this.stmt(`SELECT seq, raw, parts FROM frames WHERE seq IN (${seqs.map(() => '?').join(',')})`).all(...seqs) as { seq: number; raw: string; parts: number }[];
    return rows.map((r) => (r.parts > 0 ? this.wholeText(r.seq, r.raw) : r.raw)).join('\n');
  }

  /**
   * The selected frames, in capture order. A filter is answered by `find` (the API's filtered
   * query: SQL pushdown first, the matcher for the rest), so an export selects exactly what the
   * dashboard shows for the same filter.
   */
  *select(selection: Selection = {}, find?: ExchangeFinder): Iterable<Frame> {
    if (!selection.filter && !selection.exchangeIds) {
      const session = selection.session;
      const page =
        session === undefined
          ? this.stmt('SELECT * FROM frames WHERE seq > ? ORDER BY seq LIMIT ?')
          : this.stmt('SELECT * FROM frames WHERE seq > ? AND session_key = ? ORDER BY seq LIMIT ?');
      // A session's rows stored by its key precede those stored by reference (session-keys.ts).
      for (const stored of session === undefined ? [undefined] : this.sessionKeys.storedForms(session)) {
        let after = -1;
        for (;;) {
          const rows = (stored === undefined ? page.all(after, CHUNK) : page.all(after, stored, CHUNK)) as FrameRow[];
          for (const r of rows) yield this.toFrame(r);
          if (rows.length < CHUNK) break;
          after = rows[rows.length - 1]!.seq;
        }
      }
      return;
    }
    const seqs = new Set<number>();
    if (selection.exchangeIds) {
      for (const id of selection.exchangeIds) for (const seq of this.exchange(id)?.frameSeqs ?? []) seqs.add(seq);
    } else {
      if (!find) throw new Error('selecting by filter needs the filtered query');
      let before: number | undefined;
      do {
        const page = find(selection.filter!, CHUNK, before);
        for (const ex of page.exchanges) if (selection.session === undefined || ex.sessionKey === selection.session) for (const seq of ex.frameSeqs) seqs.add(seq);
        before = page.nextBefore;
      } while (before !== undefined);
    }
    const sorted = [...seqs].sort((a, b) => a - b);
    for (let i = 0; i < sorted.length; i += CHUNK) yield* this.frames(sorted.slice(i, i + CHUNK));
  }

  private frameRows(seqs: readonly number[]): FrameRow[] {
    const out: FrameRow[] = [];
    for (let i = 0; i < seqs.length; i += CHUNK) {
      const chunk = seqs.slice(i, i + CHUNK);
      out.push(...(this.stmt(`SELECT * FROM frames WHERE seq IN (${chunk.map(() => '?').join(',')}) ORDER BY seq`).all(...chunk) as FrameRow[]));
    }
    return out;
  }

  // ── exchanges ───────────────────────────────────────────────────────────────────────────────

  /** Newest first, paged by `before` (a sort key); unfiltered (filtered pages: CaptureQuery). */
  exchanges(limit: number, before?: number): ExchangeSummary[] {
    const rows = (before === undefined
      ? this.stmt('SELECT summary FROM exchanges ORDER BY sort_key DESC LIMIT ?').all(limit)
      : this.stmt('SELECT summary FROM exchanges WHERE sort_key < ? ORDER BY sort_key DESC LIMIT ?').all(before, limit)) as { summary: string }[];
    return rows.map((r) => this.summary(r.summary));
  }

  /** Exchanges in capture order (oldest first), of one session or all, read page by page. */
  *exchangesInCaptureOrder(session?: string): Iterable<ExchangeSummary> {
    const page =
      session === undefined
        ? this.stmt('SELECT sort_key, summary FROM exchanges WHERE sort_key > ? ORDER BY sort_key LIMIT ?')
        : this.stmt('SELECT sort_key, summary FROM exchanges WHERE sort_key > ? AND session_key = ? ORDER BY sort_key LIMIT ?');
    // A session's rows stored by its key precede those stored by reference (session-keys.ts).
    for (const stored of session === undefined ? [undefined] : this.sessionKeys.storedForms(session)) {
      let after = -1;
      for (;;) {
        const rows = (stored === undefined ? page.all(after, CHUNK) : page.all(after, stored, CHUNK)) as { sort_key: number; summary: string }[];
        for (const r of rows) yield this.summary(r.summary);
        if (rows.length < CHUNK) break;
        after = rows[rows.length - 1]!.sort_key;
      }
    }
  }

  /** Exchanges changed by frames after `after`, oldest change first, as JSON text (for WebSocket catch-up). */
  exchangesUpdatedAfter(after: number, limit: number): { id: string; summary: string }[] {
    const rows = this.stmt('SELECT id, summary FROM exchanges WHERE updated_seq > ? ORDER BY updated_seq LIMIT ?').all(after, limit) as { id: string; summary: string }[];
    for (const row of rows) row.summary = this.summaryText(row.summary);
    return rows;
  }

  exchange(id: string): ExchangeSummary | undefined {
    const row = this.stmt('SELECT summary FROM exchanges WHERE id = ?').get(id) as { summary: string } | undefined;
    return row ? this.summary(row.summary) : undefined;
  }

  /**
   * An exchange summary as stored in `exchanges.summary` (packed, templates.ts, or its own JSON),
   * as the object it was. Whoever selects the column reads it through this or `summaryText`.
   */
  summary(stored: string): ExchangeSummary {
    return this.templates.exchange<ExchangeSummary>(stored);
  }

  /** A stored exchange summary as the JSON text it was given (what the API and dashboards receive). */
  summaryText(stored: string): string {
    return this.templates.exchangeText(stored);
  }

  /** The session's newest exchange of `method` that ended `ok` (e.g. its latest `tools/list`). */
  latestOk(sessionKey: string, method: string): ExchangeSummary | undefined {
    // Newest first: rows stored by reference follow those stored by the key (session-keys.ts).
    for (const stored of this.sessionKeys.storedForms(sessionKey).reverse()) {
      const row = this.stmt(`SELECT summary FROM exchanges WHERE session_key = ? AND method = ? AND status = 'ok' ORDER BY sort_key DESC LIMIT 1`).get(stored, method) as { summary: string } | undefined;
      if (row) return this.summary(row.summary);
    }
    return undefined;
  }

  /**
   * Findings about an exchange, and those about one of its frames as a whole, in capture order.
   * A batch frame holds several exchanges: a finding about one item belongs to that item's row only.
   */
  diagnosticsFor(ex: Pick<ExchangeSummary, 'id' | 'frameSeqs'>): Diagnostic[] {
    const seqs = ex.frameSeqs;
    const rows = this.stmt(`SELECT * FROM diagnostics WHERE exchange_id = ?${seqs.length ? ` OR (exchange_id IS NULL AND frame_seq IN (${seqs.map(() => '?').join(',')}))` : ''} ORDER BY id`).all(
      ex.id,
      ...seqs,
    ) as DiagnosticRow[];
    return rows.map(toDiagnostic);
  }

  /** The distinct diagnostic codes of an exchange (for `diag:CODE` filters). */
  diagnosticCodes(ex: Pick<ExchangeSummary, 'id' | 'frameSeqs'>): string[] {
    return [...new Set(this.diagnosticsFor(ex).map((d) => d.code))];
  }

  // ── sessions, replay links, snapshot ────────────────────────────────────────────────────────

  /** Conversations that hold a session or an exchange, the most recently started first (ties: by key). */
  conversations(): ConversationSummary[] {
    const rows = this.stmt(`SELECT summary FROM conversations WHERE members > 0 ORDER BY ${CONVERSATION_ORDER}`).all() as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as ConversationSummary);
  }

  /**
   * Conversations whose summary changed after frame `after`, at most `limit` (a dashboard's
   * catch-up: those emptied by a merge too, as live updates send them). The table has no index on
   * `updated_seq`: SQLite walks its rows, but parses only the summaries it returns.
   */
  conversationsChangedAfter(after: number, limit: number): ConversationSummary[] {
    const rows = this.stmt('SELECT summary FROM conversations WHERE updated_seq > ? LIMIT ?').all(after, limit) as { summary: string }[];
    return rows.map((r) => JSON.parse(r.summary) as ConversationSummary);
  }

  /** Conversations at positions `[offset, offset + limit)` of `conversations()`'s list, and how many it holds. */
  conversationsAt(offset: number, limit: number): { total: number; conversations: ConversationSummary[] } {
    const total = (this.stmt('SELECT count(*) AS n FROM conversations WHERE members > 0').get() as { n: number }).n;
    const rows = this.stmt(`SELECT summary FROM conversations WHERE members > 0 ORDER BY ${CONVERSATION_ORDER} LIMIT ? OFFSET ?`).all(limit, offset) as { summary: string }[];
    return { total, conversations: rows.map((r) => JSON.parse(r.summary) as ConversationSummary) };
  }

  /** Position of a conversation in `conversations()`'s list, -1 when it does not hold it. */
  conversationPosition(key: string): number {
    const row = this.stmt('SELECT first_ts FROM conversations WHERE members > 0 AND key = ?').get(key) as { first_ts: number } | undefined;
    if (!row) return -1;
    const newer = 'members > 0 AND (first_ts > ? OR (first_ts = ? AND key < ?))';
    return (this.stmt(`SELECT count(*) AS n FROM conversations WHERE ${newer}`).get(row.first_ts, row.first_ts, key) as { n: number }).n;
  }

  conversation(key: string): ConversationSummary | undefined {
    const row = this.stmt('SELECT summary FROM conversations WHERE key = ?').get(key) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as ConversationSummary) : undefined;
  }

  /** The sessions of a conversation, the most recently active first. */
  sessionsOf(conversationKey: string): SessionSummary[] {
    const rows = this.stmt('SELECT summary FROM sessions WHERE conversation_key = ? ORDER BY last_ts DESC').all(conversationKey) as { summary: string }[];
    const ended = this.endedSessionKeys();
    return rows.map((r) => withEnd(JSON.parse(r.summary) as SessionSummary, ended));
  }

  /**
   * The sessions of the conversations `keys`, at most `limit` (the sidebar's page of
   * conversations reads its one-session conversations' sessions at once), through the
   * sessions_by_conversation index.
   */
  sessionsOfConversations(keys: readonly string[], limit: number): SessionSummary[] {
    const rows = this.stmt('SELECT summary FROM sessions WHERE conversation_key IN (SELECT value FROM json_each(?)) LIMIT ?').all(JSON.stringify(keys), limit) as { summary: string }[];
    const ended = rows.length > 0 ? this.endedSessionKeys() : new Set<string>();
    return rows.map((r) => withEnd(JSON.parse(r.summary) as SessionSummary, ended));
  }

  /** Every session, most recently active first, `ended` set for those the client ended. */
  sessions(): SessionSummary[] {
    const rows = this.stmt('SELECT summary FROM sessions ORDER BY last_ts DESC').all() as { summary: string }[];
    const ended = this.endedSessionKeys();
    return rows.map((r) => withEnd(JSON.parse(r.summary) as SessionSummary, ended));
  }

  /**
   * The sessions of the frames in `(after, upTo]`, at most `limit` (a dashboard's catch-up). The
   * sessions table records no seq: a session's summary changes with frames of its own (its
   * messages, their answers, its own call naming the host's conversation), so the frames after
   * the cursor name every session changed since, read through the frames' key, not the whole table.
   */
  sessionsOfFramesIn(after: number, upTo: number, limit: number): SessionSummary[] {
    const stored = this.stmt('SELECT DISTINCT session_key FROM frames WHERE seq > ? AND seq <= ? LIMIT ?').all(after, upTo, limit) as { session_key: string }[];
    if (stored.length === 0) return [];
    const byKey = this.stmt('SELECT summary FROM sessions WHERE session_key = ?');
    const ended = this.endedSessionKeys();
    const sessions: SessionSummary[] = [];
    for (const { session_key } of stored) {
      const row = byKey.get(this.sessionKeys.key(session_key)) as { summary: string } | undefined;
      if (row) sessions.push(withEnd(JSON.parse(row.summary) as SessionSummary, ended));
    }
    return sessions;
  }

  /**
   * Sessions at positions `[offset, offset + limit)` of a list of sessions, and how many it holds:
   * every session (or one conversation's, `list.conversation`; `''`: those in none), the most
   * recently started first (the sidebar's order: it does not reshuffle as sessions stay active),
   * or the oldest first (`list.oldestFirst`: a conversation's own order).
   */
  sessionsAt(offset: number, limit: number, list: SessionListQuery = {}): { total: number; sessions: SessionSummary[] } {
    const { where, params } = sessionsOfConversation(list.conversation);
    const total = (this.stmt(`SELECT count(*) AS n FROM sessions${where}`).get(...params) as { n: number }).n;
    const order = list.oldestFirst ? `${SESSION_START} ASC, session_key DESC` : `${SESSION_START} DESC, session_key`;
    const rows = this.stmt(`SELECT summary FROM sessions${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, limit, offset) as { summary: string }[];
    const ended = rows.length > 0 ? this.endedSessionKeys() : new Set<string>();
    return { total, sessions: rows.map((r) => withEnd(JSON.parse(r.summary) as SessionSummary, ended)) };
  }

  /** Position of a session in `sessionsAt`'s order for the same `list`, -1 when that list does not hold it. */
  sessionPosition(sessionKey: string, list: SessionListQuery = {}): number {
    const { where, params } = sessionsOfConversation(list.conversation);
    const and = where ? `${where} AND` : ' WHERE';
    const row = this.stmt(`SELECT ${SESSION_START} AS start FROM sessions${and} session_key = ?`).get(...params, sessionKey) as { start: number } | undefined;
    if (!row) return -1;
    const newer = `(${SESSION_START} > ? OR (${SESSION_START} = ? AND session_key < ?))`;
    const before = (this.stmt(`SELECT count(*) AS n FROM sessions${and} ${newer}`).get(...params, row.start, row.start, sessionKey) as { n: number }).n;
    if (!list.oldestFirst) return before;
    const total = (this.stmt(`SELECT count(*) AS n FROM sessions${where}`).get(...params) as { n: number }).n;
    return total - 1 - before;
  }

  session(sessionKey: string): SessionSummary | undefined {
    const row = this.stmt('SELECT summary FROM sessions WHERE session_key = ?').get(sessionKey) as { summary: string } | undefined;
    return row ? withEnd(JSON.parse(row.summary) as SessionSummary, this.endedSessionKeys()) : undefined;
  }

  /**
   * Sessions the client ended: a DELETE on the MCP endpoint that the server accepted (2xx). It is
   * an HTTP fact with no frame of its own, so it comes from the door records, not the deriver
   * (the dashboard reads the same rule from its live door records). A partial index keeps it a
   * lookup (migration 9).
   */
  endedSessionKeys(): Set<string> {
    return this.door.endedSessionKeys();
  }

  /** Which exchange replays which (not derived: survives a rebuild; see replay-links.ts). */
  get replayLinks(): ReplayLinks {
    this.replayLinkTable ??= new ReplayLinks(this.db);
    return this.replayLinkTable;
  }

  /** The stored deriver snapshot, if any: as of frame `seq`, state as JSON text. */
  deriverSnapshot(): { seq: number; version: number; state: string } | undefined {
    return this.stmt('SELECT seq, version, state FROM deriver_snapshot WHERE id = 1').get() as { seq: number; version: number; state: string } | undefined;
  }
}

/** Which sessions a window lists, and in which order. */
export interface SessionListQuery {
  /** One conversation's sessions (`''`: those in none); every session when absent. */
  conversation?: string;
  /** The oldest first; the most recently started first when absent. */
  oldestFirst?: boolean;
}

/** The WHERE clause of one conversation's sessions (`''`: those in none; undefined: every session). */
function sessionsOfConversation(conversation: string | undefined): { where: string; params: string[] } {
  if (conversation === undefined) return { where: '', params: [] };
  if (conversation === '') return { where: ' WHERE conversation_key IS NULL', params: [] };
  return { where: ' WHERE conversation_key = ?', params: [conversation] };
}

/** The `sort_key` column: capture order of an exchange id (one definition, in the protocol package). */
export const sortKey = exchangeOrderKey;

/** A row as a frame but its HTTP layer, which `CaptureReader.toFrame` unpacks, and its session key, which it reads. */
function toFrame(r: FrameRow, sessionKey: string): Frame {
  return { seq: r.seq, ts: r.ts, sessionKey, direction: r.direction, transport: r.transport, kind: r.kind, raw: r.raw };
}

function toDiagnostic(r: DiagnosticRow): Diagnostic {
  const d: Diagnostic = { frameSeq: r.frame_seq, code: r.code, severity: r.severity, message: r.message };
  if (r.exchange_id !== null) d.exchangeId = r.exchange_id;
  if (r.path !== null) d.path = r.path;
  return d;
}

/** The summary with `ended` set when its session is one the client ended. */
function withEnd(s: SessionSummary, ended: ReadonlySet<string>): SessionSummary {
  if (ended.has(s.sessionKey)) s.ended = true;
  return s;
}
