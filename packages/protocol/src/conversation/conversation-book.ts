/**
 * Who belongs to which conversation: placing sessions and session-less exchanges by the best
 * evidence at hand (the host's conversation id, else the credential's fingerprint within an hour,
 * else the same client within ten minutes), and moving a session when better evidence arrives.
 *
 * Deterministic: the same frames in the same order give the same keys and memberships, so a
 * rebuild from frames equals live capture. Bounded: about the MAX_CONVERSATIONS most recently
 * active conversations and MAX_SESSIONS most recently active sessions are kept; a session seen
 * again after it was let go is placed afresh. Map order is the eviction order (kept by
 * snapshots); a record goes back to the end only when it has drifted out of the newest quarter
 * (its `epoch`), so a busy capture does not pay two Map writes per frame for exact LRU.
 *
 * Nothing changed is lost to eviction: a conversation let go with changes its owner has not taken
 * yet waits in `letGo` until the next take, so what the owner takes does not depend on how many
 * conversations began between two takes. `letGo` holds only what changed since the last take.
 */
import type { ExchangeStatus } from '../model/exchange.js';
import { leftNewestQuarter } from '../model/lru-order.js';
import type { SessionSummary } from '../session/session-summary.js';
import type { ConversationChurn, ConversationSummary, EraLane, JoinEvidence } from './conversation-summary.js';
import { emptyLane, moveSessionEvents } from './era-lane.js';

export const MAX_CONVERSATIONS = 2048;
export const MAX_SESSIONS = 16_384;
/** A session of the same client this soon after a conversation's last activity joins it. */
export const CLIENT_GAP_MS = 10 * 60_000;
/** The same credential joins within an hour (a typical access-token lifetime). */
export const CREDENTIAL_GAP_MS = 60 * 60_000;
const MAX_CREDENTIALS = 8;

/** How many records the book keeps (tests use small bounds to make eviction happen often). */
export interface ConversationBounds {
  conversations: number;
  sessions: number;
}

export const DEFAULT_CONVERSATION_BOUNDS: ConversationBounds = { conversations: MAX_CONVERSATIONS, sessions: MAX_SESSIONS };

/** A conversation and what deciding membership needs beside its summary. */
export interface ConvRecord {
  summary: ConversationSummary;
  /** The host name of the session that started it: who "the same client" is. */
  clientId: string;
  credentials: string[];
  /** Session-less traffic: a tools/list since the last tools/call. */
  listedSinceCall: boolean;
  /** Calls in a row that were each preceded by a tools/list of their own session (or, session-less, of the conversation). */
  relistStreak: number;
  /** Lint codes already reported for this conversation (each is reported once). */
  linted: string[];
  /** The book's insertion count when this record last went to the end of the LRU order. */
  epoch: number;
  /** The session whose tools/list is the conversation's latest (for calls in sessions that did not list). */
  toolsFrom?: string;
  /** The seq of a tools/list_changed not yet followed by a tools/list (and its session), and whether a call after it was reported. */
  listChangedAt?: number;
  listChangedSession?: string;
  listChangedReported?: boolean;
}

/** What a session contributed to its conversation (moved with it). */
export interface SessionRecord {
  conv: string;
  epoch: number;
  joinedBy: JoinEvidence;
  clientId: string;
  hostId?: string;
  credential?: string;
  initialized: boolean;
  used: boolean;
  /** A tools/list in this session since its last tools/call. */
  listedSinceCall?: boolean;
  expired?: boolean;
  initialize: number;
  toolsList: number;
  toolsCall: number;
  staleCalls: number;
}

/** Evidence about one session or exchange, as placement reads it. */
export interface Evidence {
  seq: number;
  ts: number;
  clientId: string;
  hostId?: string;
  credential?: string;
}

export interface BookState {
  conversations: [key: string, record: ConvRecord][];
  sessions: [sessionKey: string, record: SessionRecord][];
  byHost: [hostId: string, key: string][];
  recentByClient: [clientId: string, key: string][];
  recentByCredential: [credential: string, key: string][];
  insertions: number;
  dirty: [key: string, seq: number][];
  /** Absent in snapshots of a book that let nothing changed go. */
  letGo?: [key: string, record: ConvRecord][];
}


export class ConversationBook {
  readonly conversations = new Map<string, ConvRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly byHost = new Map<string, string>();
  readonly recentByClient = new Map<string, string>();
  readonly recentByCredential = new Map<string, string>();
  /** Conversations changed since the owner last took them, with the seq of the frame that last did. */
  readonly dirty = new Map<string, number>();
  /** Conversations no longer kept whose changes are still to be taken (each key is also in `dirty`); the owner empties it when it takes. */
  readonly letGo = new Map<string, ConvRecord>();
  /** The seq of the frame being derived (what `mark` records). */
  seq = 0;
  /** Session summaries whose conversation changed since the owner last took them. */
  readonly moved = new Set<SessionSummary>();
  constructor(readonly bounds: ConversationBounds = DEFAULT_CONVERSATION_BOUNDS) {}

  /** A conversation changed (by the frame being derived); one already let go waits in `letGo` for the next take. */
  mark(conv: ConvRecord): void {
    const key = conv.summary.key;
    this.dirty.set(key, this.seq);
    if (this.conversations.get(key) !== conv) this.letGo.set(key, conv);
  }

  /** Records moved to the end of either LRU map so far (the clock of their `epoch`). */
  private insertions = 0;

  /** Conversations whose era lane changed since it was last copied out (not state: after a restore every lane is copied once). */
  readonly eraChanged = new Set<string>();

  churn(conv: ConvRecord): ConversationChurn {
    return conv.summary.churn;
  }

  joined(conv: ConvRecord): ConversationSummary['joinedBy'] {
    return conv.summary.joinedBy;
  }

  /** The lane, to change in place (the next emission copies it). */
  era(conv: ConvRecord): EraLane {
    this.eraChanged.add(conv.summary.key);
    return conv.summary.era;
  }

  snapshot(): BookState {
    return {
      conversations: [...this.conversations],
      sessions: [...this.sessions],
      byHost: [...this.byHost],
      recentByClient: [...this.recentByClient],
      recentByCredential: [...this.recentByCredential],
      insertions: this.insertions,
      dirty: [...this.dirty],
      ...(this.letGo.size > 0 ? { letGo: [...this.letGo] } : {}),
    };
  }

  static restore(state: BookState, bounds?: ConversationBounds): ConversationBook {
    const b = new ConversationBook(bounds);
    for (const [k, v] of state.conversations) b.conversations.set(k, v);
    for (const [k, v] of state.sessions) b.sessions.set(k, v);
    for (const [k, v] of state.byHost) b.byHost.set(k, v);
    for (const [k, v] of state.recentByClient) b.recentByClient.set(k, v);
    for (const [k, v] of state.recentByCredential) b.recentByCredential.set(k, v);
    b.insertions = state.insertions;
    for (const [k, v] of state.dirty) b.dirty.set(k, v);
    for (const [k, v] of state.letGo ?? []) b.letGo.set(k, v);
    return b;
  }

  /** The conversation evidence points to, creating it when nothing fits; with how it joined. */
  place(e: Evidence, host: string): { conv: ConvRecord; joinedBy: JoinEvidence } {
    if (e.hostId !== undefined) {
      const conv = this.live(this.byHost.get(e.hostId));
      return { conv: conv ?? this.create(e, host), joinedBy: 'host' };
    }
    if (e.credential !== undefined) {
      const conv = this.live(this.recentByCredential.get(e.credential));
      if (conv && e.ts - conv.summary.lastTs <= CREDENTIAL_GAP_MS) return { conv, joinedBy: 'credential' };
    }
    const conv = this.live(this.recentByClient.get(e.clientId));
    if (conv && e.ts - conv.summary.lastTs <= CLIENT_GAP_MS && (e.credential === undefined || conv.credentials.length === 0 || conv.credentials.includes(e.credential))) {
      return { conv, joinedBy: 'client-time' };
    }
    return { conv: this.create(e, host), joinedBy: e.credential !== undefined ? 'credential' : 'client-time' };
  }

  /** A new session in the conversation evidence points to. */
  addSession(s: SessionSummary, e: Evidence, host: string): SessionRecord {
    const { conv, joinedBy } = this.place(e, host);
    const rec: SessionRecord = { conv: conv.summary.key, epoch: ++this.insertions, joinedBy, clientId: e.clientId, initialized: false, used: false, initialize: 0, toolsList: 0, toolsCall: 0, staleCalls: 0 };
    if (e.credential !== undefined) rec.credential = e.credential;
    this.sessions.set(s.sessionKey, rec);
    if (this.sessions.size > this.bounds.sessions) this.sessions.delete(this.sessions.keys().next().value!);
    this.attach(s, rec, conv, +1);
    return rec;
  }

  /**
   * The session's host conversation id is known: it joins that conversation. Its current one adopts
   * the id when it has none and no other conversation has it; otherwise the session moves.
   */
  learnHost(s: SessionSummary, rec: SessionRecord, hostId: string, evidence: () => Evidence, host: () => string): void {
    if (rec.hostId !== undefined) return;
    rec.hostId = hostId;
    const current = this.conversations.get(rec.conv);
    const owner = this.live(this.byHost.get(hostId));
    if (current && (owner === current || (owner === undefined && current.summary.hostId === undefined))) {
      if (owner === undefined) this.adoptHost(current, hostId);
      this.relabel(current, rec, 'host', s);
      return;
    }
    const target = owner ?? this.create({ ...evidence(), hostId }, host());
    if (current) {
      this.attach(s, rec, current, -1);
      moveSessionEvents(this.era(current), this.era(target), s.sessionKey);
    }
    rec.conv = target.summary.key;
    rec.joinedBy = 'host';
    this.attach(s, rec, target, +1);
  }

  /** Counts a record into (+1) or out of (-1) a conversation, with the session's exchanges and churn. */
  attach(s: SessionSummary, rec: SessionRecord, conv: ConvRecord, sign: 1 | -1): void {
    const c = conv.summary;
    for (const status in s.counts) {
      const n = s.counts[status as ExchangeStatus];
      if (n) add(c.counts, status as ExchangeStatus, sign * n);
    }
    const joined = this.joined(conv);
    joined[rec.joinedBy] = (joined[rec.joinedBy] ?? 0) + sign;
    if (!joined[rec.joinedBy]) delete joined[rec.joinedBy];
    const churn = this.churn(conv);
    churn.sessions += sign;
    churn.initialize += sign * rec.initialize;
    churn.toolsList += sign * rec.toolsList;
    churn.toolsCall += sign * rec.toolsCall;
    churn.staleSessionCalls += sign * rec.staleCalls;
    if (rec.initialized && !rec.used) churn.unusedSessions += sign;
    if (rec.credential !== undefined && sign > 0) this.addCredential(conv, rec.credential);
    if (sign > 0) {
      s.conversationKey = c.key;
      s.joinedBy = rec.joinedBy;
      this.moved.add(s);
    }
    this.mark(conv);
  }

  relabel(conv: ConvRecord, rec: SessionRecord, joinedBy: JoinEvidence, s?: SessionSummary): void {
    if (rec.joinedBy === joinedBy) return;
    const c = this.joined(conv);
    c[rec.joinedBy] = (c[rec.joinedBy] ?? 1) - 1;
    if (!c[rec.joinedBy]) delete c[rec.joinedBy];
    c[joinedBy] = (c[joinedBy] ?? 0) + 1;
    rec.joinedBy = joinedBy;
    if (s) {
      s.joinedBy = joinedBy;
      this.moved.add(s);
    }
    this.mark(conv);
  }

  adoptHost(conv: ConvRecord, hostId: string): void {
    conv.summary.hostId = hostId;
    this.byHost.set(hostId, conv.summary.key);
    this.mark(conv);
  }

  addCredential(conv: ConvRecord, credential: string): void {
    if (conv.credentials.includes(credential)) return;
    conv.credentials = [...conv.credentials.slice(-(MAX_CREDENTIALS - 1)), credential];
    if (!conv.summary.credential) {
      conv.summary.credential = true;
      this.mark(conv);
    }
  }

  /** Marks activity: last-activity time, LRU order, and the "most recent" indexes. */
  touch(conv: ConvRecord, ts: number, credential: string | undefined): void {
    const key = conv.summary.key;
    // A later last-activity time is a change to write: without the mark, a batch whose frames only
    // touched the conversation left the stored lastTs behind, so what was stored depended on where
    // the capture's writes happened to cut the traffic.
    if (ts > conv.summary.lastTs) {
      conv.summary.lastTs = ts;
      this.mark(conv);
    }
    if (this.stale(conv.epoch, this.bounds.conversations)) {
      this.conversations.delete(key);
      this.conversations.set(key, conv);
      conv.epoch = ++this.insertions;
    }
    if (this.recentByClient.get(conv.clientId) !== key) this.recentByClient.set(conv.clientId, key);
    if (credential !== undefined && this.recentByCredential.get(credential) !== key) this.recentByCredential.set(credential, key);
  }

  /** The record of a session, marked as the most recently used. */
  session(sessionKey: string): SessionRecord | undefined {
    const rec = this.sessions.get(sessionKey);
    if (rec && this.stale(rec.epoch, this.bounds.sessions)) {
      this.sessions.delete(sessionKey);
      this.sessions.set(sessionKey, rec);
      rec.epoch = ++this.insertions;
    }
    return rec;
  }

  /** Whether a record has drifted out of the newest quarter of a map of `max` (and should move to its end). */
  private stale(epoch: number, max: number): boolean {
    return leftNewestQuarter(epoch, this.insertions, max);
  }

  live(key: string | undefined): ConvRecord | undefined {
    return key === undefined ? undefined : this.conversations.get(key);
  }

  private create(e: Evidence, host: string): ConvRecord {
    let key = `c${e.seq}`;
    // A batch frame may start several conversations (and let some of them go before it ends).
    for (let n = 1; this.conversations.has(key) || this.letGo.has(key); n++) key = `c${e.seq}.${n}`;
    const summary: ConversationSummary = {
      key,
      host,
      joinedBy: {},
      hints: {},
      firstTs: e.ts,
      lastTs: e.ts,
      counts: {},
      churn: { sessions: 0, initialize: 0, toolsList: 0, toolsCall: 0, unusedSessions: 0, staleSessionCalls: 0 },
      era: emptyLane(),
      updatedSeq: e.seq,
    };
    if (e.hostId !== undefined) summary.hostId = e.hostId;
    const conv: ConvRecord = { summary, clientId: e.clientId, credentials: [], listedSinceCall: false, relistStreak: 0, linted: [], epoch: ++this.insertions };
    this.conversations.set(key, conv);
    if (e.hostId !== undefined) this.byHost.set(e.hostId, key);
    this.recentByClient.set(e.clientId, key);
    if (e.credential !== undefined) this.addCredential(conv, e.credential);
    if (this.conversations.size > this.bounds.conversations) this.evictOldest();
    this.mark(conv);
    return conv;
  }

  private evictOldest(): void {
    const [key, old] = this.conversations.entries().next().value!;
    this.conversations.delete(key);
    if (this.dirty.has(key)) this.letGo.set(key, old);
    if (old.summary.hostId !== undefined && this.byHost.get(old.summary.hostId) === key) this.byHost.delete(old.summary.hostId);
    if (this.recentByClient.get(old.clientId) === key) this.recentByClient.delete(old.clientId);
    for (const c of old.credentials) if (this.recentByCredential.get(c) === key) this.recentByCredential.delete(c);
  }
}

/** Moves a count; zeros are kept (deleting keys makes the object slow to copy), copies leave them out. */
export function add(counts: Partial<Record<ExchangeStatus, number>>, status: ExchangeStatus, n: number): void {
  counts[status] = Math.max(0, (counts[status] ?? 0) + n);
}

/** The non-zero counts, as summaries carry them. */
export function nonZero(counts: Partial<Record<ExchangeStatus, number>>): Partial<Record<ExchangeStatus, number>> {
  const out: Partial<Record<ExchangeStatus, number>> = {};
  for (const status in counts) {
    const n = counts[status as ExchangeStatus];
    if (n) out[status as ExchangeStatus] = n;
  }
  return out;
}
