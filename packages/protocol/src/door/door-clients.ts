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
 *    session of the same identity it belongs with — the one it happened during, else the next one
 *    to start within `gapMs` (a client discovers, then connects), else the last one that ended
 *    within `gapMs` — and records that join no session form runs of one identity whose gaps are at
 *    most `gapMs`.
 * Identity is the User-Agent plus, for direct connections, the socket's address. Requests that
 * came through a tunnel or proxy (`X-Forwarded-For`) leave the address out: hosts such as ChatGPT
 * call from pools of addresses, so one connector's requests arrive from several of them.
 *
 * Pure and deterministic: the same records (in any order) give the same clients, keyed by their
 * session (`session:ID`) or their first record (`door:ID`). Each client says what joined it, so a
 * guess reads as a guess.
 */
import { clientAddress, type DoorRecord } from './door-record.js';

/** Records more than this far apart in time are not joined by identity alone. */
export const CLIENT_GAP_MS = 10 * 60 * 1000;

/** How many of the sessions that started before a record are looked at for one that contains it. */
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

interface SessionGroup {
  id: string;
  identity: string;
  start: number;
  end: number;
  records: DoorRecord[];
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
  const records = [...input].sort((a, b) => a.id - b.id);

  // 1. Sessions.
  const sessions = new Map<string, SessionGroup>();
  const sessionless: DoorRecord[] = [];
  for (const r of records) {
    if (r.mcpSessionId === undefined) {
      sessionless.push(r);
      continue;
    }
    let s = sessions.get(r.mcpSessionId);
    if (!s) {
      s = { id: r.mcpSessionId, identity: identityOf(r), start: r.ts, end: endOf(r), records: [], joinedByIdentity: false };
      sessions.set(r.mcpSessionId, s);
    }
    s.records.push(r);
    s.start = Math.min(s.start, r.ts);
    s.end = Math.max(s.end, endOf(r));
  }
  const byIdentity = new Map<string, SessionGroup[]>();
  for (const s of sessions.values()) {
    const list = byIdentity.get(s.identity);
    if (list) list.push(s);
    else byIdentity.set(s.identity, [s]);
  }
  for (const list of byIdentity.values()) list.sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : 1));

  // 2. Conversations: records without a session that the deriver placed in one go there directly.
  const conversationOf = options.conversationOf;
  const conversations = new Map<string, { sessions: SessionGroup[]; loose: DoorRecord[] }>();
  const conversation = (key: string) => {
    let c = conversations.get(key);
    if (!c) conversations.set(key, (c = { sessions: [], loose: [] }));
    return c;
  };

  // 3. Records without a session join one, or form runs of their own.
  const runs = new Map<string, { records: DoorRecord[]; end: number }[]>();
  for (const r of sessionless) {
    const placed = conversationOf?.(r);
    if (placed !== undefined) {
      conversation(placed).loose.push(r);
      continue;
    }
    const identity = identityOf(r);
    const target = sessionFor(r, byIdentity.get(identity), gap);
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
  for (const s of sessions.values()) {
    const placed = conversationOf && conversationOfSession(s, conversationOf);
    if (placed !== undefined) conversation(placed).sessions.push(s);
    else clients.push(client(`session:${s.id}`, s.records, s.joinedByIdentity ? ['mcp-session', 'identity-and-time'] : ['mcp-session']));
  }
  for (const [key, c] of conversations) {
    const joinedBy: ClientEvidence[] = [];
    if (c.sessions.length > 0) joinedBy.push('mcp-session');
    joinedBy.push('conversation');
    if (c.sessions.some((s) => s.joinedByIdentity)) joinedBy.push('identity-and-time');
    clients.push({ ...client(`conversation:${key}`, [...c.loose, ...c.sessions.flatMap((s) => s.records)], joinedBy), conversationKey: key });
  }
  for (const list of runs.values()) for (const run of list) clients.push(client(`door:${run.records[0]!.id}`, run.records, ['identity-and-time']));
  return clients.sort((a, b) => a.firstTs - b.firstTs || a.records[0]!.id - b.records[0]!.id);
}

/**
 * The session a sessionless record belongs with: the latest one that started by its time and has
 * not ended; else the earliest that starts within `gap` after it; else the latest that ended
 * within `gap` before it.
 */
function sessionFor(r: DoorRecord, list: SessionGroup[] | undefined, gap: number): SessionGroup | undefined {
  if (!list || list.length === 0) return undefined;
  // First session starting after r.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.start <= r.ts) lo = mid + 1;
    else hi = mid;
  }
  const next = list[lo];
  // Sessions that started by r's time, newest first: one still running contains r. Only the
  // newest few are looked at (a host that churns through sessions has thousands).
  let containing: SessionGroup | undefined;
  let ended: SessionGroup | undefined;
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

/** The conversation of a session: that of its first record that rode on the session itself. */
function conversationOfSession(s: SessionGroup, conversationOf: (r: DoorRecord) => string | undefined): string | undefined {
  for (const r of s.records) {
    if (r.mcpSessionId === undefined) continue;
    const key = conversationOf(r);
    if (key !== undefined) return key;
  }
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
