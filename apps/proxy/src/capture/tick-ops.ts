/**
 * One tick's write as a flat list of statement runs: an opcode, then that statement's parameters,
 * then the next opcode. The capture engine builds the list (capture-engine.ts), with the JSON texts
 * the live hub sends, and runs it in one transaction with `applyTickOps`, on whichever connection
 * the engine has (the store's own, or its worker's).
 *
 * Why a flat list of primitives: it leaves applying nothing to decide but which prepared statement
 * to run (everything that needs the capture's state, the summaries, replay links and the door
 * record's derived columns, is settled when the list is made).
 */
import { doorPathname, probeReason, type DoorRecord, type ExchangeSummary, type Frame, type SessionSummary, type ConversationSummary, type Diagnostic } from '@mcpscope/protocol';
// The `sort_key` column's value: the protocol's one definition of an exchange's capture order.
import { exchangeOrderKey as sortKey } from '@mcpscope/protocol';
import { packDoorRecord, packExchange, packHttp, type Template, type TemplateWriter } from './templates.js';
import { SESSION_ADOPT, SESSION_INTERN, SESSION_REF, asItself } from './session-keys.js';
import { likeDecidesText } from './text-sql.js';

/** Opcodes; each names its statement in TICK_SQL and fixes how many parameters follow it. */
export const OP = {
  frame: 1,
  /** An exchange first seen in this write: the full upsert. */
  exchange: 2,
  /** An exchange whose row an earlier write made: the narrow update, or the upsert when its identity changed. */
  exchangeChanged: 3,
  link: 4,
  session: 5,
  conversation: 6,
  diagnostic: 7,
  door: 8,
  /** A template the write names (templates.ts): stored, or found stored with the same text. */
  template: 9,
  /** A session key the write names (session-keys.ts): stored, or found stored. */
  sessionKey: 11,
} as const;

/**
 * The statements, by opcode (index 0 is the narrow exchange update that `exchangeChanged` tries
 * first, with the upsert's parameters 8 to 14, then 1 and 4 to 7; index 10 the narrow session
 * update that `session` tries first; 12 and 13 what `sessionKey` runs for a key it interns).
 */
export const TICK_SQL: readonly string[] = [
  // An answer, progress or cancel changes a stored row's state, not what it is. SQLite rewrites
  // every index over a column named in SET, equal value or not, so the common update names only
  // the columns that change; a row whose identity did change (an orphan answer whose request
  // came later) fails the WHERE and takes the full upsert. (A session-less row's conversation is
  // decided with its first summary and never changes.)
  `UPDATE exchanges SET status = ?, updated_seq = ?, summary = ?, latency_ms = ?, size = ?, error_code = ?, diagnostics = ?
   WHERE id = ? AND kind = ? AND requester = ? AND method IS ? AND target IS ?`,
  `INSERT INTO frames (seq, ts, session_key, direction, transport, kind, raw, http, bytes, parts, like_decides) VALUES (?, ?, ${SESSION_REF}, ?, ?, ?, ?, ?, ?, ?, ?)`,
  `INSERT INTO exchanges (id, sort_key, session_key, kind, requester, method, target, status, updated_seq, summary, latency_ms, size, error_code, diagnostics, conversation_key)
   VALUES (?, ?, ${SESSION_REF}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, requester = excluded.requester, method = excluded.method, target = excluded.target,
     status = excluded.status, updated_seq = excluded.updated_seq, summary = excluded.summary,
     latency_ms = excluded.latency_ms, size = excluded.size, error_code = excluded.error_code, diagnostics = excluded.diagnostics,
     conversation_key = excluded.conversation_key`,
  '', // exchangeChanged runs statements 0 and 2
  'INSERT OR IGNORE INTO frame_exchanges (frame_seq, exchange_id) VALUES (?, ?)',
  `INSERT INTO sessions (session_key, last_ts, summary, conversation_key) VALUES (?, ?, ?, ?)
   ON CONFLICT(session_key) DO UPDATE SET last_ts = excluded.last_ts, summary = excluded.summary, conversation_key = excluded.conversation_key`,
  `INSERT INTO conversations (key, first_ts, last_ts, members, updated_seq, summary) VALUES (?, ?, ?, ?, ?, ?)
   ON CONFLICT(key) DO UPDATE SET last_ts = excluded.last_ts, members = excluded.members, updated_seq = excluded.updated_seq, summary = excluded.summary`,
  'INSERT INTO diagnostics (frame_seq, exchange_id, code, severity, message, path) VALUES (?, ?, ?, ?, ?, ?)',
  `INSERT INTO door_requests (id, rev, ts, method, path, status, probe, session_key, user_agent, end_ms, bytes, record)
   VALUES (?, ?, ?, ?, ?, ?, ?, ${SESSION_REF}, ?, ?, ?, ?)
   ON CONFLICT(id) DO UPDATE SET rev = excluded.rev, status = excluded.status, probe = excluded.probe, session_key = excluded.session_key,
     end_ms = excluded.end_ms, bytes = excluded.bytes, record = excluded.record`,
  // Equal text: nothing to do; another text: the update the trigger of migration 12 fails.
  'INSERT INTO templates (id, text) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET text = excluded.text WHERE text <> excluded.text',
  // A session's row changes every tick it has traffic, its conversation almost never: naming
  // conversation_key in SET would rewrite sessions_by_conversation each time (see index 0). A row
  // that is not there, or whose conversation did change, fails the WHERE and takes the upsert.
  'UPDATE sessions SET last_ts = ?, summary = ? WHERE session_key = ? AND conversation_key IS ?',
  SESSION_INTERN,
  ...SESSION_ADOPT,
];

/** A statement as both drivers give it (sqlite.ts), narrowed to what applying needs. */
interface RunStatement {
  run(...params: unknown[]): { changes: number | bigint };
}

/** How many values follow each opcode in a write list: `applyTickOps` steps by these. */
export const OP_VALUES: Readonly<Record<number, number>> = {
  [OP.frame]: 11,
  [OP.exchange]: 15,
  [OP.exchangeChanged]: 15,
  [OP.link]: 2,
  [OP.session]: 4,
  [OP.conversation]: 6,
  [OP.diagnostic]: 6,
  [OP.door]: 12,
  [OP.template]: 2,
  [OP.sessionKey]: 1,
};

/**
 * Runs a list made by `TickOps` against the statements of TICK_SQL (prepared in that order; the
 * caller holds the transaction).
 */
export function applyTickOps(s: readonly RunStatement[], o: readonly unknown[]): void {
  let i = 0;
  while (i < o.length) {
    const op = o[i] as number;
    switch (op) {
      case 1:
        s[1]!.run(o[i + 1], o[i + 2], o[i + 3], o[i + 4], o[i + 5], o[i + 6], o[i + 7], o[i + 8], o[i + 9], o[i + 10], o[i + 11]);
        break;
      case 2:
      case 3:
        // An exchange an earlier write made takes the narrow update, unless its row is not there
        // as it was (see TICK_SQL[0]); a new one, and that one, the upsert.
        if (op === 2 || Number(s[0]!.run(o[i + 8], o[i + 9], o[i + 10], o[i + 11], o[i + 12], o[i + 13], o[i + 14], o[i + 1], o[i + 4], o[i + 5], o[i + 6], o[i + 7]).changes) !== 1) {
          s[2]!.run(o[i + 1], o[i + 2], o[i + 3], o[i + 4], o[i + 5], o[i + 6], o[i + 7], o[i + 8], o[i + 9], o[i + 10], o[i + 11], o[i + 12], o[i + 13], o[i + 14], o[i + 15]);
        }
        break;
      case 4:
        s[4]!.run(o[i + 1], o[i + 2]);
        break;
      case 5:
        if (Number(s[10]!.run(o[i + 2], o[i + 3], o[i + 1], o[i + 4]).changes) !== 1) s[5]!.run(o[i + 1], o[i + 2], o[i + 3], o[i + 4]);
        break;
      case 6:
      case 7:
        s[op]!.run(o[i + 1], o[i + 2], o[i + 3], o[i + 4], o[i + 5], o[i + 6]);
        break;
      case 8:
        s[8]!.run(o[i + 1], o[i + 2], o[i + 3], o[i + 4], o[i + 5], o[i + 6], o[i + 7], o[i + 8], o[i + 9], o[i + 10], o[i + 11], o[i + 12]);
        break;
      case 9:
        s[9]!.run(o[i + 1], o[i + 2]);
        break;
      case 11:
        // A key interned now may have rows from before migration 13: they take its reference.
        if (Number(s[11]!.run(o[i + 1]).changes) === 1) {
          s[12]!.run(o[i + 1], asItself(o[i + 1] as string));
          s[13]!.run(o[i + 1], asItself(o[i + 1] as string));
        }
        break;
      default:
        throw new Error(`tick write: unknown opcode ${String(o[i])} at ${i}`);
    }
    i += 1 + OP_VALUES[op]!;
  }
}

/**
 * What one tick wrote, as the JSON texts stored (the live hub sends them as they are), each list
 * in the order its rows were given.
 */
export interface TickTexts {
  exchangeIds: string[];
  exchanges: string[];
  sessions: string[];
  conversations: string[];
  requests: string[];
}

/** The door statement's parameters before the record's text. */
const DOOR_COLUMNS = 11;
/** Where among them the session key is. */
const DOOR_SESSION = 7;

/** Templates a door record names at most: its own and its two header maps'. */
const DOOR_TEMPLATES = 3;

/**
 * Values per door record in `doorRows`: the door statement's parameters before the record, the
 * record's JSON text (sent to dashboards), its packed text to store (null when it is stored as its
 * JSON), and the id and text of each template it names (null where fewer).
 */
export const DOOR_ROW_FIELDS = DOOR_COLUMNS + 2 + 2 * DOOR_TEMPLATES;

/**
 * Door records as the door statement's parameters and texts, flat (DOOR_ROW_FIELDS each): made
 * where the records are, so whoever writes them needs neither the objects nor to read the text
 * back. The templates are named optimistically; the writer stores the record's JSON when one of
 * them may not be named (`TickOps.doorRows`).
 */
export function doorRows(records: readonly DoorRecord[]): unknown[] {
  const out: unknown[] = [];
  const named: Pick<Template, 'id' | 'text'>[] = [];
  const name = (template: Pick<Template, 'id' | 'text'>) => {
    named.push(template);
    return true;
  };
  for (const r of records) {
    named.length = 0;
    const packed = packDoorRecord(r, name) ?? null;
    out.push(r.id, r.rev, r.ts, r.method, doorPathname(r.path), r.status ?? null, probeReason(r) ? 1 : 0, r.sessionKey ?? null, r.userAgent ?? null, r.endMs ?? null, r.requestBytes + r.responseBytes);
    out.push(JSON.stringify(r), packed);
    for (let k = 0; k < DOOR_TEMPLATES; k++) out.push(named[k]?.id ?? null, named[k]?.text ?? null);
  }
  return out;
}

/** The JSON texts of `doorRows`' records, in order. */
export function doorRowTexts(rows: readonly unknown[]): string[] {
  const out: string[] = [];
  for (let i = DOOR_COLUMNS; i < rows.length; i += DOOR_ROW_FIELDS) out.push(rows[i] as string);
  return out;
}

/**
 * Builds one write's list; each `add…` appends in the order the transaction runs them. Frames'
 * HTTP layers, door records and exchange summaries are stored packed (templates.ts) when `templates` is given and
 * accepts theirs; each template a write names is written by the same write.
 */
export class TickOps {
  readonly ops: unknown[] = [];
  readonly texts: TickTexts = { exchangeIds: [], exchanges: [], sessions: [], conversations: [], requests: [] };
  /** Templates this write already names. */
  private readonly named = new Set<number>();
  /** Session keys this write already names. */
  private readonly keys = new Set<string>();

  constructor(private readonly templates?: TemplateWriter) {}

  /** Whether the template may be named, and if so, its write is in the list. */
  private readonly claim = (template: Pick<Template, 'id' | 'text'>): boolean => {
    if (!this.templates?.accepts(template)) return false;
    if (!this.named.has(template.id)) {
      this.named.add(template.id);
      this.ops.push(OP.template, template.id, template.text);
    }
    return true;
  };

  /** Lists the key's interning before the first row that stores it (by reference: session-keys.ts). */
  private intern(key: string | null): void {
    if (key === null || this.keys.has(key)) return;
    this.keys.add(key);
    this.ops.push(OP.sessionKey, key);
  }

  /** Frames; `httpJson[i]`, when given, is `frames[i].http` as JSON text (worker-engine.ts `readFrames`). */
  frames(frames: readonly Frame[], httpJson?: readonly (string | null)[]): void {
    const o = this.ops;
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i]!;
      this.intern(f.sessionKey);
      const http = f.http ? ((this.templates && packHttp(f.http, this.claim)) ?? (httpJson ? httpJson[i]! : JSON.stringify(f.http))) : null;
      // A large frame whose text the large-frame writer stored but its head (large-writer.ts): its
      // row, with the head, commits here with its derived rows.
      // A large frame's text is searched joined, never by LIKE: it has no `like_decides`.
      if (f.stored) o.push(OP.frame, f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.stored.head, http, f.stored.bytes, f.stored.pieces, null);
      else o.push(OP.frame, f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.raw, http, Buffer.byteLength(f.raw), 0, likeDecidesText(f.raw) ? 1 : 0);
    }
  }

  /** Door records (their `rev` already set), as `doorRows` makes them. */
  door(records: readonly DoorRecord[]): void {
    this.doorRows(doorRows(records));
  }

  /**
   * Door records as `doorRows` made them (on another thread): stored packed when every template
   * they name is accepted, else as their JSON.
   */
  doorRows(rows: readonly unknown[]): void {
    const o = this.ops;
    for (let i = 0; i < rows.length; i += DOOR_ROW_FIELDS) {
      const text = rows[i + DOOR_COLUMNS] as string;
      const packed = rows[i + DOOR_COLUMNS + 1] as string | null;
      // Claiming lists the templates' writes: before the record's, never inside it.
      const stored = packed !== null && this.claimAll(rows, i + DOOR_COLUMNS + 2) ? packed : text;
      this.intern(rows[i + DOOR_SESSION] as string | null);
      o.push(OP.door);
      for (let k = 0; k < DOOR_COLUMNS; k++) o.push(rows[i + k]);
      o.push(stored);
      this.texts.requests.push(text);
    }
  }

  /** `claim` for each template a door row names (ids and texts from `rows[at]`; a null id ends them). */
  private claimAll(rows: readonly unknown[], at: number): boolean {
    for (let k = 0; k < DOOR_TEMPLATES; k++) {
      const id = rows[at + 2 * k] as number | null;
      if (id === null) return true;
      if (!this.claim({ id, text: rows[at + 2 * k + 1] as string })) return false;
    }
    return true;
  }

  /**
   * Derived rows. An exchange whose row an earlier write made (its first frame is before
   * `newFrom`) is updated in place; frame links are written for frames from `newFrom` on (older
   * frames were linked when they were written).
   */
  derived(
    set: { exchanges: readonly ExchangeSummary[]; sessions: readonly SessionSummary[]; conversations: readonly ConversationSummary[]; diagnostics: readonly Diagnostic[] },
    newFrom: number,
    annotate: (ex: ExchangeSummary) => void,
  ): void {
    const o = this.ops;
    const texts = this.texts;
    for (const ex of set.exchanges) {
      annotate(ex);
      const key = sortKey(ex.id);
      const summary = JSON.stringify(ex);
      // Claiming lists the template's write: before the row's, never inside it.
      const stored = (this.templates && packExchange(ex, this.claim)) ?? summary;
      this.intern(ex.sessionKey);
      texts.exchangeIds.push(ex.id);
      texts.exchanges.push(summary);
      o.push(Math.trunc(key) < newFrom ? OP.exchangeChanged : OP.exchange, ex.id, key, ex.sessionKey, ex.kind, ex.requester, ex.method ?? null, ex.target ?? null, ex.status, ex.updatedSeq, stored, ex.latencyMs ?? null, ex.size, ex.errorCode ?? null, ex.diagnostics, ex.conversation ?? null);
      for (const seq of ex.frameSeqs) if (seq >= newFrom) o.push(OP.link, seq, ex.id);
    }
    for (const s of set.sessions) {
      const summary = JSON.stringify(s);
      texts.sessions.push(summary);
      o.push(OP.session, s.sessionKey, s.lastTs, summary, s.conversationKey ?? null);
    }
    for (const c of set.conversations) {
      let members = 0;
      for (const n of Object.values(c.joinedBy)) members += n ?? 0;
      const summary = JSON.stringify(c);
      texts.conversations.push(summary);
      o.push(OP.conversation, c.key, c.firstTs, c.lastTs, members, c.updatedSeq, summary);
    }
    for (const d of set.diagnostics) o.push(OP.diagnostic, d.frameSeq, d.exchangeId ?? null, d.code, d.severity, d.message, d.path ?? null);
  }
}
