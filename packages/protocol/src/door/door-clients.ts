/**
 * Groups door records by the client that made them, so each client's connection can be read as
 * one story. Evidence, strongest first:
 * 1. The MCP session: every record that carried or was given one `Mcp-Session-Id` is one client.
 * 2. The conversation (when the caller knows it, `conversationOf`): the deriver's grouping of
 *    sessions into the host's conversations. ChatGPT opens a session per tool call, so without it
 *    one chat would read as ten clients that each connected once. Sessions of one conversation are
 *    one client, and so are session-less MCP requests the deriver placed in it (probes before
 *    `initialize`, the stateless era).
 * 3. Identity and time: a record without a session (discovery, OAuth, probes, a 401) joins the
 *    session or conversation of the same identity it belongs with — the one it happened during,
 *    else the next one to start within `gapMs` (a client discovers, then connects), else the last
 *    one that ended within `gapMs` — and records that join none form runs of one identity whose
 *    gaps are at most `gapMs`.
 * Identity is the User-Agent plus, for direct connections, the socket's address. Requests that
 * came through a tunnel or proxy (`X-Forwarded-For`) leave the address out: hosts such as ChatGPT
 * call from pools of addresses, so one connector's requests arrive from several of them.
 *
 * Pure and deterministic: the same records (in any order) give the same clients, keyed by their
 * conversation (`conversation:KEY`), session (`session:ID`) or first record (`door:ID`). Each client says what joined it, so a
 * guess reads as a guess.
 */
import { clientAddress, type DoorRecord } from './door-record.js';

/** Records more than this far apart in time are not joined by identity alone. */
export const CLIENT_GAP_MS = 10 * 60 * 1000;

/** How many of the groups that started before a record are looked at for one that contains it. */
const LOOK_BACK = 64;

export type ClientEvidence = 'mcp-session' | 'conversation' | 'identity-and-time';

export interface DoorClient {
  key: string;
  /** In arrival order. */
  records: DoorRecord[];
  /** `Mcp-Session-Id`s of the client, in order of first use. */
  sessionIds: string[];
  /** Capture session keys of the frames its MCP requests carried. */
  sessionKeys: string[];
  userAgent?: string;
  /** Where it connected from (the first record's forwarded or socket address). */
  address: string;
  firstTs: number;
  lastTs: number;
  /** What joined its records: the session, the conversation, or a guess from identity and time. */
  joinedBy: ClientEvidence[];
  /** Set when the client is a conversation (key `conversation:KEY`). */
  conversationKey?: string;
}

export interface GroupOptions {
  gapMs?: number;
  /** The conversation a record's MCP traffic belongs to, when it is known (see the header, 2). */
  conversationOf?: (record: DoorRecord) => string | undefined;
}

/**
 * Records joined by evidence (a session, or the sessions and session-less requests of one
 * conversation), which records without evidence may then join by identity and time.
 */
interface Group {
  key: string;
  /** Its records' identities (a session's is its first record's). */
  identities: string[];
  start: number;
  end: number;
  records: DoorRecord[];
  sessions: number;
  conversationKey?: string;
  joinedByIdentity: boolean;
}

export function identityOf(r: DoorRecord): string {
  const ua = r.userAgent ?? r.requestHeaders['user-agent'] ?? '';
  const forwarded = r.requestHeaders['x-forwarded-for'] !== undefined;
  return `${ua}\u0000${forwarded ? 'forwarded' : r.peer.address}`;
}

const endOf = (r: DoorRecord) => (r.end === 'open' ? Number.POSITIVE_INFINITY : r.ts + (r.endMs ?? 0));

export function groupDoorClients(input: readonly DoorRecord[], options: GroupOptions = {}): DoorClient[] {
  const gap = options.gapMs ?? CLIENT_GAP_MS;
  const conversationOf = options.conversationOf;
  const records = [...input].sort((a, b) => a.id - b.id);

  // 1. Sessions.
  const sessions = new Map<string, DoorRecord[]>();
  const sessionless: DoorRecord[] = [];
  for (const r of records) {
    if (r.mcpSessionId === undefined) {
      sessionless.push(r);
      continue;
    }
    const list = sessions.get(r.mcpSessionId);
    if (list) list.push(r);
    else sessions.set(r.mcpSessionId, [r]);
  }

  // 2. Conversations: their sessions, and the records without a session the deriver placed in them.
  const groups = new Map<string, Group>();
  const add = (key: string, rs: DoorRecord[], session: boolean, conversationKey: string | undefined) => {
    let g = groups.get(key);
    if (!g) {
      g = { key, identities: [], start: Number.POSITIVE_INFINITY, end: Number.NEGATIVE_INFINITY, records: [], sessions: 0, joinedByIdentity: false };
      if (conversationKey !== undefined) g.conversationKey = conversationKey;
      groups.set(key, g);
    }
    if (session) g.sessions++;
    for (const r of rs) {
      g.records.push(r);
      g.start = Math.min(g.start, r.ts);
      g.end = Math.max(g.end, endOf(r));
    }
    // A session is known by its first record's identity; a conversation by all of them.
    for (const r of session ? rs.slice(0, 1) : rs) {
      const identity = identityOf(r);
      if (!g.identities.includes(identity)) g.identities.push(identity);
    }
  };
  for (const [id, rs] of sessions) {
    const conv = conversationOf && conversationOfSession(rs, conversationOf);
    add(conv === undefined ? `session:${id}` : `conversation:${conv}`, rs, true, conv);
  }
  const unplaced: DoorRecord[] = [];
  for (const r of sessionless) {
    const conv = conversationOf?.(r);
    if (conv === undefined) unplaced.push(r);
    else add(`conversation:${conv}`, [r], false, conv);
  }
  const byIdentity = new Map<string, Group[]>();
  for (const g of groups.values()) {
    for (const identity of g.identities) {
      const list = byIdentity.get(identity);
      if (list) list.push(g);
      else byIdentity.set(identity, [g]);
    }
  }
  for (const list of byIdentity.values()) list.sort((a, b) => a.start - b.start || (a.key < b.key ? -1 : 1));

  // 3. The other records without a session join a group of their identity, or form runs of their own.
  const runs = new Map<string, { records: DoorRecord[]; end: number }[]>();
  for (const r of unplaced) {
    const identity = identityOf(r);
    const target = groupFor(r, byIdentity.get(identity), gap);
    if (target) {
      target.records.push(r);
      target.joinedByIdentity = true;
      continue;
    }
    let own = runs.get(identity);
    if (!own) runs.set(identity, (own = []));
    const last = own[own.length - 1];
    if (last && r.ts - last.end <= gap) {
      last.records.push(r);
      last.end = Math.max(last.end, endOf(r));
    } else {
      own.push({ records: [r], end: endOf(r) });
    }
  }

  const clients: DoorClient[] = [];
  for (const g of groups.values()) {
    const joinedBy: ClientEvidence[] = [];
    if (g.sessions > 0) joinedBy.push('mcp-session');
    if (g.conversationKey !== undefined) joinedBy.push('conversation');
    if (g.joinedByIdentity) joinedBy.push('identity-and-time');
    const c = client(g.key, g.records, joinedBy);
    if (g.conversationKey !== undefined) c.conversationKey = g.conversationKey;
    clients.push(c);
  }
  for (const list of runs.values()) for (const run of list) clients.push(client(`door:${run.records[0]!.id}`, run.records, ['identity-and-time']));
  return clients.sort((a, b) => a.firstTs - b.firstTs || a.records[0]!.id - b.records[0]!.id);
}

/** The conversation of a session: that of its first record the caller can place. */
function conversationOfSession(records: readonly DoorRecord[], conversationOf: (r: DoorRecord) => string | undefined): string | undefined {
  for (const r of records) {
    const key = conversationOf(r);
    if (key !== undefined) return key;
  }
  return undefined;
}

/**
 * The group a record without evidence belongs with: the latest one that started by its time and
 * has not ended; else the earliest that starts within `gap` after it; else the latest that ended
 * within `gap` before it.
 */
function groupFor(r: DoorRecord, list: Group[] | undefined, gap: number): Group | undefined {
  if (!list || list.length === 0) return undefined;
  // First group starting after r.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.start <= r.ts) lo = mid + 1;
    else hi = mid;
  }
  const next = list[lo];
  // Groups that started by r's time, newest first: one still running contains r. Only the
  // newest few are looked at (a host that churns through sessions has thousands).
  let containing: Group | undefined;
  let ended: Group | undefined;
  for (let i = lo - 1; i >= 0 && i >= lo - LOOK_BACK; i--) {
    const s = list[i]!;
    if (s.end >= r.ts) {
      containing = s;
      break;
    }
    if (!ended || s.end > ended.end) ended = s;
  }
  if (containing) return containing;
  if (next && next.start - r.ts <= gap) return next;
  if (ended && r.ts - ended.end <= gap) return ended;
  return undefined;
}

function client(key: string, input: DoorRecord[], joinedBy: ClientEvidence[]): DoorClient {
  const records = input.sort((a, b) => a.id - b.id);
  const first = records[0]!;
  const sessionIds: string[] = [];
  const sessionKeys: string[] = [];
  let lastTs = first.ts;
  for (const r of records) {
    if (r.mcpSessionId !== undefined && !sessionIds.includes(r.mcpSessionId)) sessionIds.push(r.mcpSessionId);
    if (r.sessionKey !== undefined && !sessionKeys.includes(r.sessionKey)) sessionKeys.push(r.sessionKey);
    lastTs = Math.max(lastTs, r.ts + (r.endMs ?? 0));
  }
  const ua = first.userAgent ?? first.requestHeaders['user-agent'];
  const out: DoorClient = { key, records, sessionIds, sessionKeys, address: clientAddress(first), firstTs: first.ts, lastTs, joinedBy };
  if (ua !== undefined) out.userAgent = ua;
  return out;
}
