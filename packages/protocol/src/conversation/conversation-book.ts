/**
 * Who belongs to which conversation: placing sessions and session-less exchanges by the best
 * evidence at hand (the host's conversation id, else the credential's fingerprint within an hour,
 * else the same client within ten minutes), and moving a session when better evidence arrives.
 *
 * Deterministic: the same frames in the same order give the same keys and memberships, so a
 * rebuild from frames equals live capture. Bounded: the MAX_CONVERSATIONS most recently active
 * conversations and MAX_SESSIONS most recently active sessions are kept (Map order is the LRU
 * order, kept by snapshots); a session seen again after it was let go is placed afresh.
 */
import { EXCHANGE_STATUSES, type ExchangeStatus } from '../model/exchange.js';
import type { SessionSummary } from '../session/session-summary.js';
import type { ConversationSummary, JoinEvidence } from './conversation-summary.js';
import { emptyLane, moveSessionEvents } from './era-lane.js';

export const MAX_CONVERSATIONS = 2048;
export const MAX_SESSIONS = 16_384;
/** A session of the same client this soon after a conversation's last activity joins it. */
export const CLIENT_GAP_MS = 10 * 60_000;
/** The same credential joins within an hour (a typical access-token lifetime). */
export const CREDENTIAL_GAP_MS = 60 * 60_000;
const MAX_CREDENTIALS = 8;

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
}

export class ConversationBook {
  readonly conversations = new Map<string, ConvRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly byHost = new Map<string, string>();
  readonly recentByClient = new Map<string, string>();
  readonly recentByCredential = new Map<string, string>();
  /** Conversations changed since the owner last took them. */
  readonly dirty = new Set<string>();
  /** Session summaries whose conversation changed since the owner last took them. */
  readonly moved = new Set<SessionSummary>();

  snapshot(): BookState {
    return {
      conversations: [...this.conversations],
      sessions: [...this.sessions],
      byHost: [...this.byHost],
      recentByClient: [...this.recentByClient],
      recentByCredential: [...this.recentByCredential],
    };
  }

  static restore(state: BookState): ConversationBook {
    const b = new ConversationBook();
    for (const [k, v] of state.conversations) b.conversations.set(k, v);
    for (const [k, v] of state.sessions) b.sessions.set(k, v);
    for (const [k, v] of state.byHost) b.byHost.set(k, v);
    for (const [k, v] of state.recentByClient) b.recentByClient.set(k, v);
    for (const [k, v] of state.recentByCredential) b.recentByCredential.set(k, v);
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
    const rec: SessionRecord = { conv: conv.summary.key, joinedBy, clientId: e.clientId, initialized: false, used: false, initialize: 0, toolsList: 0, toolsCall: 0, staleCalls: 0 };
    if (e.credential !== undefined) rec.credential = e.credential;
    this.sessions.set(s.sessionKey, rec);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    this.attach(s, rec, conv, +1);
    return rec;
  }

  /**
   * The session's host conversation id is known: it joins that conversation. Its current one adopts
   * the id when it has none and no other conversation has it; otherwise the session moves.
   */
  learnHost(s: SessionSummary, rec: SessionRecord, hostId: string, e: Evidence, host: string): void {
    if (rec.hostId !== undefined) return;
    rec.hostId = hostId;
    const current = this.conversations.get(rec.conv);
    const owner = this.live(this.byHost.get(hostId));
    if (current && (owner === current || (owner === undefined && current.summary.hostId === undefined))) {
      if (owner === undefined) this.adoptHost(current, hostId);
      this.relabel(current, rec, 'host', s);
      return;
    }
    const target = owner ?? this.create({ ...e, hostId }, host);
    if (current) {
      this.attach(s, rec, current, -1);
      target.summary.era = moveSessionEvents(current.summary.era, target.summary.era, s.sessionKey);
    }
    rec.conv = target.summary.key;
    rec.joinedBy = 'host';
    this.attach(s, rec, target, +1);
  }

  /** Counts a record into (+1) or out of (-1) a conversation, with the session's exchanges and churn. */
  attach(s: SessionSummary, rec: SessionRecord, conv: ConvRecord, sign: 1 | -1): void {
    const c = conv.summary;
    for (const status of EXCHANGE_STATUSES) {
      const n = s.counts[status];
      if (n) add(c.counts, status, sign * n);
    }
    c.joinedBy[rec.joinedBy] = (c.joinedBy[rec.joinedBy] ?? 0) + sign;
    if (!c.joinedBy[rec.joinedBy]) delete c.joinedBy[rec.joinedBy];
    c.churn.sessions += sign;
    c.churn.initialize += sign * rec.initialize;
    c.churn.toolsList += sign * rec.toolsList;
    c.churn.toolsCall += sign * rec.toolsCall;
    c.churn.staleSessionCalls += sign * rec.staleCalls;
    if (rec.initialized && !rec.used) c.churn.unusedSessions += sign;
    if (rec.credential !== undefined && sign > 0) this.addCredential(conv, rec.credential);
    if (sign > 0) {
      s.conversationKey = c.key;
      s.joinedBy = rec.joinedBy;
      this.moved.add(s);
    }
    this.dirty.add(c.key);
  }

  relabel(conv: ConvRecord, rec: SessionRecord, joinedBy: JoinEvidence, s?: SessionSummary): void {
    if (rec.joinedBy === joinedBy) return;
    const c = conv.summary.joinedBy;
    c[rec.joinedBy] = (c[rec.joinedBy] ?? 1) - 1;
    if (!c[rec.joinedBy]) delete c[rec.joinedBy];
    c[joinedBy] = (c[joinedBy] ?? 0) + 1;
    rec.joinedBy = joinedBy;
    if (s) {
      s.joinedBy = joinedBy;
      this.moved.add(s);
    }
    this.dirty.add(conv.summary.key);
  }

  adoptHost(conv: ConvRecord, hostId: string): void {
    conv.summary.hostId = hostId;
    this.byHost.set(hostId, conv.summary.key);
    this.dirty.add(conv.summary.key);
  }

  addCredential(conv: ConvRecord, credential: string): void {
    if (conv.credentials.includes(credential)) return;
    conv.credentials = [...conv.credentials.slice(-(MAX_CREDENTIALS - 1)), credential];
    if (!conv.summary.credential) {
      conv.summary.credential = true;
      this.dirty.add(conv.summary.key);
    }
  }

  /** Marks activity: last-activity time, LRU order, and the "most recent" indexes. */
  touch(conv: ConvRecord, ts: number, credential: string | undefined): void {
    const key = conv.summary.key;
    if (ts > conv.summary.lastTs) conv.summary.lastTs = ts;
    this.conversations.delete(key);
    this.conversations.set(key, conv);
    this.recentByClient.set(conv.clientId, key);
    if (credential !== undefined) this.recentByCredential.set(credential, key);
  }

  /** The record of a session, marked as the most recently used. */
  session(sessionKey: string): SessionRecord | undefined {
    const rec = this.sessions.get(sessionKey);
    if (rec) {
      this.sessions.delete(sessionKey);
      this.sessions.set(sessionKey, rec);
    }
    return rec;
  }

  live(key: string | undefined): ConvRecord | undefined {
    return key === undefined ? undefined : this.conversations.get(key);
  }

  private create(e: Evidence, host: string): ConvRecord {
    let key = `c${e.seq}`;
    // A batch frame may start several conversations.
    for (let n = 1; this.conversations.has(key); n++) key = `c${e.seq}.${n}`;
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
    const conv: ConvRecord = { summary, clientId: e.clientId, credentials: [], listedSinceCall: false, relistStreak: 0, linted: [] };
    this.conversations.set(key, conv);
    if (e.hostId !== undefined) this.byHost.set(e.hostId, key);
    this.recentByClient.set(e.clientId, key);
    if (e.credential !== undefined) this.addCredential(conv, e.credential);
    if (this.conversations.size > MAX_CONVERSATIONS) this.evictOldest();
    this.dirty.add(key);
    return conv;
  }

  private evictOldest(): void {
    const [key, old] = this.conversations.entries().next().value!;
    this.conversations.delete(key);
    this.dirty.delete(key);
    if (old.summary.hostId !== undefined && this.byHost.get(old.summary.hostId) === key) this.byHost.delete(old.summary.hostId);
    if (this.recentByClient.get(old.clientId) === key) this.recentByClient.delete(old.clientId);
    for (const c of old.credentials) if (this.recentByCredential.get(c) === key) this.recentByCredential.delete(c);
  }
}

export function add(counts: Partial<Record<ExchangeStatus, number>>, status: ExchangeStatus, n: number): void {
  const next = (counts[status] ?? 0) + n;
  if (next > 0) counts[status] = next;
  else delete counts[status];
}
