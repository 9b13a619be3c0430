/**
 * Derives conversations from frames, beside the session tracker and inside the CaptureDeriver:
 * membership (conversation-book.ts), per-conversation exchange counts and churn, the era lane
 * (era-lane.ts), host hints, and the lints that only make sense across a conversation's sessions
 * (a client that re-lists tools before every call, probes for the 2026-07-28 era in a loop, or
 * calls a tool after `notifications/tools/list_changed` without listing again).
 *
 * mcpscope's own sessions (replays, re-runs, widget previews: own-session.ts) join no
 * conversation, so a conversation's sessions and churn are the host's alone.
 *
 * Pure and incremental; its state is plain JSON (part of the deriver snapshot). Changed
 * conversations, and sessions whose conversation changed, are collected until taken: every
 * conversation changed since the last take is handed out by the next, kept or let go.
 */
import type { Frame } from '../model/frame.js';
import { copyJson } from '../model/json-copy.js';
import { isTerminal, type ExchangeStatus, type ExchangeSummary } from '../model/exchange.js';
import { isJsonObject, type JsonObject, type Message } from '../model/json-rpc.js';
import { isSessionlessKey, type SessionSummary } from '../session/session-summary.js';
import { isOwnSession } from '../session/own-session.js';
import { joinPath } from '../model/json-path.js';
import type { Finding, ItemContext, Single } from '../derive/item-context.js';
import { add, nonZero, ConversationBook, type BookState, type ConversationBounds, type ConvRecord, type Evidence, type SessionRecord } from './conversation-book.js';
import type { ConversationSummary, EraEvent } from './conversation-summary.js';
import { copyLane, finishEvent, isProbeLoop, requestedRevision, startEvent, type EraAnswer } from './era-lane.js';
import { hintValue, hostConversationId, hostName, isHostHintKey, MAX_HINTS } from './host-hints.js';

/**
 * What ChatGPT does with a changed tool list, told instead of advice its user cannot act on. A
 * field report, not documented by OpenAI: ChatGPT keeps the tool definitions it read when the app
 * was created or last refreshed, and a change shows only after "Refresh" in the app's settings
 * (github.com/openai/openai-apps-sdk-examples/issues/23).
 */
export const CHATGPT_TOOL_LIST =
  'ChatGPT does not re-list on list_changed: it keeps the tools it read when the app was created or last refreshed (a field report: github.com/openai/openai-apps-sdk-examples/issues/23). After changing tools, refresh the app in ChatGPT (Settings → Apps → your app → Refresh); the server cannot make ChatGPT list again.';

/** Requests that set a session up or look around; any other request means the session was used. */
const SETUP_METHODS = new Set(['initialize', 'ping', 'server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list', 'logging/setLevel']);
/** Calls in a row, each preceded by its own tools/list, before the re-list lint speaks. */
export const RELIST_AFTER = 3;
const ANSWER_CHARS = 120;

export interface ConversationTrackerState {
  book: BookState;
  exchanges: [exchangeId: string, key: string][];
  pendingEra: [exchangeId: string, event: EraEvent][];
}

export class ConversationTracker {
  private readonly book: ConversationBook;
  /** Session-less exchanges still open, and the conversation each joined. */
  private readonly exchangeConv: Map<string, string>;
  /** Probes and initializes waiting for their answer. */
  private readonly pendingEra: Map<string, EraEvent>;
  /** The frame being derived: its session key, whether that session is made up, and its record (a per-frame cache). */
  private frameKey = '';
  private frameSessionless = false;
  private frameRec: SessionRecord | undefined;
  /** The copy of each lane last handed out (not state: rebuilt on the next emission). */
  private readonly laneCopies = new Map<string, ConversationSummary['era']>();

  constructor(state?: ConversationTrackerState, bounds?: ConversationBounds) {
    const s = state ? copyJson(state) : undefined;
    this.book = s ? ConversationBook.restore(s.book, bounds) : new ConversationBook(bounds);
    this.exchangeConv = new Map(s?.exchanges ?? []);
    this.pendingEra = new Map(s?.pendingEra ?? []);
  }

  snapshot(): ConversationTrackerState {
    return copyJson({ book: this.book.snapshot(), exchanges: [...this.exchangeConv], pendingEra: [...this.pendingEra] });
  }

  /** A frame of a session with a server-minted id: place the session, note its credential. */
  onFrame(frame: Frame, session: SessionSummary | undefined): void {
    this.book.seq = frame.seq;
    this.frameKey = frame.sessionKey;
    this.frameSessionless = isSessionlessKey(frame.sessionKey);
    this.frameRec = undefined;
    if (!session || this.frameSessionless || isOwnSession(session)) return;
    const credential = frame.direction === 'c2s' ? frame.http?.credential : undefined;
    let rec = this.book.session(frame.sessionKey);
    if (!rec || !this.book.conversations.has(rec.conv)) rec = this.book.addSession(session, this.evidence(frame, session, credential), this.host(session));
    const conv = this.book.conversations.get(rec.conv)!;
    if (credential !== undefined && rec.credential === undefined) {
      rec.credential = credential;
      this.book.addCredential(conv, credential);
    }
    this.book.touch(conv, frame.ts, rec.credential);
    this.frameRec = rec;
  }

  /** Before pairing: a session-less client message joins a conversation under its row id, once. */
  placeExchange(rowId: string, frame: Frame, item: Single, session: SessionSummary | undefined): void {
    if (!session || !this.sessionless(frame.sessionKey) || frame.direction !== 'c2s') return;
    if ((item.kind !== 'request' && item.kind !== 'notification') || this.exchangeConv.has(rowId)) return;
    const hostId = hostConversationId(item.params);
    const e = this.evidence(frame, session, frame.http?.credential);
    if (hostId !== undefined) e.hostId = hostId;
    this.join(rowId, e, session);
  }

  /** An exchange's status moved: the conversation's counts move with it. */
  onStatus(ex: ExchangeSummary, before: ExchangeStatus | undefined, session: SessionSummary): void {
    const conv = this.convOf(ex, session);
    if (!conv) return;
    if (before) add(conv.summary.counts, before, -1);
    add(conv.summary.counts, ex.status, +1);
    this.book.mark(conv);
  }

  /** A client request or notification, paired: host evidence, hints, churn and the era lane; returns lints. */
  onClientMessage(ctx: ItemContext, exchangeId: string | undefined): Finding[] {
    const { frame, item, session } = ctx;
    if ((item.kind !== 'request' && item.kind !== 'notification') || ctx.sender !== 'client' || !session) return [];
    let rec: SessionRecord | undefined;
    if (!this.sessionless(frame.sessionKey)) {
      rec = this.recOf(frame.sessionKey);
      const hostId = hostConversationId(item.params);
      if (rec && hostId !== undefined && rec.hostId === undefined) {
        const r = rec;
        this.book.learnHost(session, r, hostId, () => this.evidence(frame, session, r.credential), () => this.host(session));
      }
    }
    const conv = rec ? this.book.live(rec.conv) : exchangeId === undefined ? undefined : this.book.live(this.exchangeConv.get(exchangeId));
    if (!conv) return [];
    this.noteHints(conv, item.params);
    if (item.kind !== 'request') return [];
    const c = conv.summary;
    const out: Finding[] = [];
    const method = item.method;
    if (method === 'initialize' || method === 'server/discover') {
      if (method === 'initialize') {
        this.book.churn(conv).initialize++;
        if (rec) {
          rec.initialize++;
          if (!rec.initialized) {
            rec.initialized = true;
            if (!rec.used) this.book.churn(conv).unusedSessions++;
          }
        }
      } else if (isProbeLoop(c.era) && once(conv, 'discover-probe-loop')) {
        out.push({ code: 'discover-probe-loop', severity: 'warning', path: joinPath(ctx.base, '$.method'), message: `The client has probed with server/discover ${c.era.failedProbes} times in this conversation and fell back to initialize every time: it does not remember that this server speaks only the legacy era, and pays a round trip for every new session. Clients should cache the era they found per server.` });
      }
      if (exchangeId !== undefined) this.startEra(this.book.era(conv), method, item.params, ctx, exchangeId);
    } else if (method === 'tools/list') {
      this.book.churn(conv).toolsList++;
      if (rec) {
        rec.toolsList++;
        rec.listedSinceCall = true;
      } else conv.listedSinceCall = true;
    } else if (method === 'tools/call') {
      out.push(...this.onCall(conv, rec, ctx));
    }
    if (rec && !rec.used && !SETUP_METHODS.has(method)) {
      rec.used = true;
      if (rec.initialized) this.book.churn(conv).unusedSessions--;
    }
    this.book.mark(conv);
    return out;
  }

  /** A server notification: `tools/list_changed` makes the conversation's tool list stale. */
  onServerNotification(frame: Frame, method: string, rowId: string | undefined): void {
    if (method !== 'notifications/tools/list_changed') return;
    const conv = this.convFor(frame.sessionKey, rowId);
    if (!conv) return;
    conv.listChangedAt = frame.seq;
    conv.listChangedSession = frame.sessionKey;
    conv.listChangedReported = false;
  }

  /** A tools/list answered in this session: the conversation's latest list, and no longer stale. */
  onToolsListed(sessionKey: string, exchangeId: string | undefined): void {
    const conv = this.convFor(sessionKey, exchangeId);
    if (!conv) return;
    conv.toolsFrom = sessionKey;
    delete conv.listChangedAt;
    delete conv.listChangedSession;
    delete conv.listChangedReported;
  }

  /**
   * The session whose tools/list a call in `sessionKey` is checked against when it listed none
   * itself: the conversation's latest, when the session's membership is not a guess.
   */
  toolsSession(sessionKey: string): string | undefined {
    const rec = this.book.sessions.get(sessionKey);
    const from = rec && rec.joinedBy !== 'client-time' ? this.book.live(rec.conv)?.toolsFrom : undefined;
    return from !== sessionKey ? from : undefined;
  }

  /**
   * The conversation whose results a session's tool results are compared with for shape drift:
   * its conversation when the session's membership is not a guess by client and time.
   */
  shapeScope(sessionKey: string): string | undefined {
    const rec = this.book.sessions.get(sessionKey);
    return rec && rec.joinedBy !== 'client-time' ? rec.conv : undefined;
  }

  /**
   * An exchange this frame changed: a negotiation's event in the lane settles, and an answer that
   * says the server does not know the session counts as a call on a stale session (and marks a
   * session with a minted id gone).
   */
  onUpdated(ex: ExchangeSummary, frame: Frame, message: Message, answers: ReadonlyMap<string, Single>, session: SessionSummary | undefined): void {
    // Runs for every exchange of every frame: the two cheap tests that almost always fail come first.
    if (ex.responseSeq === frame.seq && frame.direction === 's2c' && frame.http?.method === 'POST') this.checkStale(ex, frame, message, session);
    if (this.pendingEra.size === 0 || !isTerminal(ex.status)) return;
    const pending = this.pendingEra.get(ex.id);
    if (!pending) return;
    this.pendingEra.delete(ex.id);
    const answer = answers.get(ex.id);
    const conv = this.convFor(ex.sessionKey, ex.id);
    if (!conv) return;
    const a: EraAnswer = { ok: ex.status === 'ok' };
    if (ex.responseSeq === frame.seq && frame.http?.status !== undefined) a.httpStatus = frame.http.status;
    if (ex.errorCode !== undefined) a.errorCode = ex.errorCode;
    if (ex.errorMessage !== undefined) a.errorMessage = ex.errorMessage;
    if (answer?.kind === 'response') a.result = answer.result;
    if (answer?.kind === 'error' && answer.error.data !== undefined) a.errorData = answer.error.data;
    finishEvent(this.book.era(conv), pending, a);
    this.book.mark(conv);
  }

  /** The conversation a session-less exchange joined (exchanges of a session follow the session). */
  exchangeConversation(exchangeId: string): string | undefined {
    return this.exchangeConv.get(exchangeId);
  }

  /** Stops following a settled exchange. */
  forget(exchangeId: string): void {
    this.exchangeConv.delete(exchangeId);
    this.pendingEra.delete(exchangeId);
  }

  /** Sessions whose conversation changed since the last call (the session objects themselves). */
  takeMovedSessions(): SessionSummary[] {
    if (this.book.moved.size === 0) return NO_SESSIONS;
    const sessions = [...this.book.moved];
    this.book.moved.clear();
    return sessions;
  }

  /**
   * Conversations changed since the last call, as copies safe to keep, each stamped with the seq
   * of the last frame that changed it. Called once per batch, not per frame: a conversation
   * changes with nearly every frame, and only its latest state is worth copying. Conversations
   * the book let go since the last call are among them (with what they held when let go: no
   * frame finds them after), so each one's latest state is handed out, however many began in between.
   */
  takeConversations(): ConversationSummary[] {
    if (this.book.dirty.size === 0) return [];
    const conversations: ConversationSummary[] = [];
    for (const [key, seq] of this.book.dirty) {
      const conv = this.book.conversations.get(key) ?? this.book.letGo.get(key);
      if (!conv) continue;
      conv.summary.updatedSeq = seq;
      // A lane changes a few times per session: copy it only when it changed.
      let lane = this.laneCopies.get(key);
      if (!lane || this.book.eraChanged.has(key)) {
        lane = copyLane(conv.summary.era);
        this.laneCopies.set(key, lane);
      }
      conversations.push(emitted(conv.summary, lane));
    }
    this.book.dirty.clear();
    this.book.letGo.clear();
    this.book.eraChanged.clear();
    // Copies of lanes of conversations the book let go: dropped all at once now and then.
    if (this.laneCopies.size > 2 * this.book.bounds.conversations) this.laneCopies.clear();
    return conversations;
  }

  private onCall(conv: ConvRecord, rec: SessionRecord | undefined, ctx: ItemContext): Finding[] {
    const c = conv.summary;
    const out: Finding[] = [];
    this.book.churn(conv).toolsCall++;
    if (rec) rec.toolsCall++;
    const listed = rec ? rec.listedSinceCall === true : conv.listedSinceCall;
    conv.relistStreak = listed ? conv.relistStreak + 1 : 0;
    if (rec) rec.listedSinceCall = false;
    else conv.listedSinceCall = false;
    if (conv.relistStreak === RELIST_AFTER && once(conv, 'tools-relisted-every-call')) {
      out.push({ code: 'tools-relisted-every-call', severity: 'info', path: joinPath(ctx.base, '$.method'), message: `${c.host} listed the tools before each of its last ${RELIST_AFTER} calls in this conversation (${c.churn.toolsList} tools/list for ${c.churn.toolsCall} tools/call so far): it does not keep the list between calls. Keep tools/list fast and its answer stable; the churn is the host's, not a fault of the server.` });
    }
    // Across sessions only when membership is not a guess (the call names the conversation, or its session joined by evidence).
    const params = ctx.item.kind === 'request' ? ctx.item.params : undefined;
    const sure = rec ? rec.joinedBy !== 'client-time' || conv.listChangedSession === ctx.frame.sessionKey : hostConversationId(params) !== undefined;
    if (conv.listChangedAt !== undefined && !conv.listChangedReported && sure) {
      conv.listChangedReported = true;
      const name = typeof params?.name === 'string' ? `"${params.name}"` : 'a tool';
      const what = `The server announced notifications/tools/list_changed (frame #${conv.listChangedAt}) and the client called ${name} without listing tools again in this conversation: it may call a tool that is gone, or with its old schema.`;
      const fix = c.host === 'ChatGPT' ? CHATGPT_TOOL_LIST : 'List tools after list_changed.';
      out.push({ code: 'tool-called-after-list-changed', severity: 'warning', path: joinPath(ctx.base, '$.params.name'), message: `${what} ${fix}` });
    }
    return out;
  }

  private startEra(lane: ConversationSummary['era'], method: string, params: JsonObject | undefined, ctx: ItemContext, exchangeId: string): void {
    const requested = requestedRevision(method, params, ctx.frame.http?.requestHeaders?.['mcp-protocol-version']);
    const event: EraEvent = { kind: method === 'initialize' ? 'initialize' : 'discover', exchangeId, sessionKey: ctx.frame.sessionKey, ts: ctx.frame.ts, outcome: 'pending' };
    if (requested !== undefined) event.requested = requested;
    this.pendingEra.set(exchangeId, startEvent(lane, event));
  }

  private checkStale(ex: ExchangeSummary, frame: Frame, message: Message, session: SessionSummary | undefined): void {
    const status = frame.http?.status;
    if (status !== 404 && status !== 400) return;
    const rec = this.sessionless(ex.sessionKey) ? undefined : this.recOf(ex.sessionKey);
    // 404 is the spec's "no such session"; SDK servers' own routing answers 400 with an id-less
    // -32000 (also to a call that carries no session at all); a 400 on a session never seen initialized.
    const sdkUnknown = message.kind === 'error' && message.id === null && message.error.code === -32000;
    if (!(status === 404 || sdkUnknown || (rec !== undefined && !rec.initialized))) return;
    if (ex.method === 'initialize' || ex.method === 'server/discover') return;
    const conv = this.convFor(ex.sessionKey, ex.id);
    if (conv) this.staleCall(conv, rec, session, status, message);
  }

  private staleCall(conv: ConvRecord, rec: SessionRecord | undefined, session: SessionSummary | undefined, status: number, message: Message): void {
    if (rec) rec.staleCalls++;
    const churn = this.book.churn(conv);
    churn.staleSessionCalls++;
    const error = message.kind === 'error' ? ` · ${message.error.code} ${message.error.message}` : '';
    const answer = `HTTP ${status}${error}`;
    churn.staleAnswer = answer.length > ANSWER_CHARS ? `${answer.slice(0, ANSWER_CHARS - 1)}…` : answer;
    if (rec && session && !rec.expired) {
      rec.expired = true;
      session.expired = true;
      this.book.moved.add(session);
    }
    this.book.mark(conv);
  }

  private noteHints(conv: ConvRecord, params: JsonObject | undefined): void {
    const meta = params?._meta;
    if (!isJsonObject(meta)) return;
    // Every client message of a ChatGPT conversation repeats the same hints: compare them in place, copy only on a change.
    let next: Record<string, string> | undefined;
    for (const key in meta) {
      if (!isHostHintKey(key)) continue;
      const value = hintValue(meta[key]!);
      const current = (next ?? conv.summary.hints)[key];
      if (current === value || (current === undefined && Object.keys(next ?? conv.summary.hints).length >= MAX_HINTS)) continue;
      next ??= { ...conv.summary.hints };
      next[key] = value;
    }
    if (!next) return;
    conv.summary.hints = next;
    this.book.mark(conv);
  }

  private join(exchangeId: string, e: Evidence, session: SessionSummary): ConvRecord {
    const { conv, joinedBy } = this.book.place(e, this.host(session));
    this.exchangeConv.set(exchangeId, conv.summary.key);
    const joined = this.book.joined(conv);
    joined[joinedBy] = (joined[joinedBy] ?? 0) + 1;
    if (e.credential !== undefined) this.book.addCredential(conv, e.credential);
    this.book.touch(conv, e.ts, e.credential);
    this.book.mark(conv);
    return conv;
  }

  private sessionless(sessionKey: string): boolean {
    return sessionKey === this.frameKey ? this.frameSessionless : isSessionlessKey(sessionKey);
  }

  private recOf(sessionKey: string): SessionRecord | undefined {
    return sessionKey === this.frameKey && this.frameRec ? this.frameRec : this.book.sessions.get(sessionKey);
  }

  private convOf(ex: ExchangeSummary, session: SessionSummary): ConvRecord | undefined {
    if (!this.sessionless(ex.sessionKey)) return this.book.live(this.recOf(ex.sessionKey)?.conv);
    const conv = this.book.live(this.exchangeConv.get(ex.id));
    if (conv) return conv;
    // A row no client message opened (an orphan answer, a server notification): the client's latest conversation.
    return this.join(ex.id, { seq: ex.updatedSeq, ts: ex.startTs, clientId: this.host(session) }, session);
  }

  private convFor(sessionKey: string, exchangeId: string | undefined): ConvRecord | undefined {
    if (!this.sessionless(sessionKey)) return this.book.live(this.recOf(sessionKey)?.conv);
    return exchangeId === undefined ? undefined : this.book.live(this.exchangeConv.get(exchangeId));
  }

  private evidence(frame: Frame, session: SessionSummary, credential: string | undefined): Evidence {
    const e: Evidence = { seq: frame.seq, ts: frame.ts, clientId: this.host(session) };
    if (credential !== undefined) e.credential = credential;
    return e;
  }

  private host(session: SessionSummary): string {
    return hostName(session.userAgent, session.clientInfo);
  }
}

const NO_SESSIONS: SessionSummary[] = [];

/**
 * A summary as handed out: a copy (its era lane is the copy made when the lane last changed;
 * `hints` is replaced, never changed in place). Built field by field so every copy has one shape.
 */
function emitted(c: ConversationSummary, era: ConversationSummary['era']): ConversationSummary {
  const out: ConversationSummary = { key: c.key, host: c.host, joinedBy: { ...c.joinedBy }, hints: c.hints, firstTs: c.firstTs, lastTs: c.lastTs, counts: nonZero(c.counts), churn: { ...c.churn }, era, updatedSeq: c.updatedSeq };
  if (c.hostId !== undefined) out.hostId = c.hostId;
  if (c.credential) out.credential = true;
  return out;
}

function once(conv: ConvRecord, code: string): boolean {
  if (conv.linted.includes(code)) return false;
  conv.linted = [...conv.linted, code];
  return true;
}
