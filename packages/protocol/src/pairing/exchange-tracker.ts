/**
 * Incremental pairing of frames into exchanges.
 *
 * Requests pair with responses by `(sessionKey, requester side, id)`: the spec scopes id
 * uniqueness to the sender within a session, and both sides send requests (a server's
 * `sampling/createMessage` may reuse id 1 while the client's `initialize` was id 1 too).
 * A response seen before its request becomes an `orphan` row and pairs when the request comes.
 *
 * When a sender reuses an id while the first request is still in flight, the carrier decides:
 * each HTTP request (POST) carries its own replies, so an answer pairs with the request of that
 * id that its own HTTP exchange carried, else with the oldest one. A JSON answer is its POST's
 * whole reply, and so is its event stream once the tap records that it ended short of replies
 * (`stream-ended`): a request that POST carried and the answer left out was never answered.
 *
 * Pure: frames in, changed summaries out. The tracker forgets finished exchanges, so its memory
 * is bounded by what is in flight, not by what was captured. What a new row looks like, and how an
 * answer sets its outcome, is exchange-rows.ts; this file decides which row a frame belongs to.
 */
import { bodyBytes, type Frame } from '../model/frame.js';
import { cutEnvelope } from '../model/cut-envelope.js';
import {
  classifyText,
  idKey,
  isJsonObject,
  type ErrorMessage,
  type JsonObject,
  type Message,
  type NotificationMessage,
  type RequestMessage,
  type ResponseMessage,
} from '../model/json-rpc.js';
import type { ExchangeSummary } from '../model/exchange.js';
import { targetOf } from '../model/target.js';
import { isTransportEvent, parseTransportFrame } from '../model/transport-frame.js';
import { authorizationMessage, isAuthorizationAnswer } from '../model/authorization-answer.js';
import { RowNumbering, RowTable, type TrackerState } from './tracker-state.js';
import { applyOutcome, attach, invalidRow, noteProgress, notificationRow, orphanRow, requestRow, transportRow, type Side } from './exchange-rows.js';

/** Answers waiting for a request that never comes are forgotten, oldest first, past this. */
export const MAX_ORPHANS = 1024;
/** Requests followed while waiting for their answer; beyond this the oldest is let go. */
export const MAX_IN_FLIGHT = 16_384;
/** Requests kept waiting under one reused id; beyond this the oldest is let go. */
export const MAX_SHADOWED = 64;

const sideOf = (direction: Frame['direction']): Side => (direction === 'c2s' ? 'client' : 'server');
const otherSide = (side: Side): Side => (side === 'client' ? 'server' : 'client');

export class ExchangeTracker {
  /** Pending requests by pair key (the latest, when a sender reused an id while in flight). */
  private readonly open = new Map<string, ExchangeSummary>();
  /** Earlier requests still in flight under a pair key that a later request took, oldest first. */
  private readonly shadowed = new Map<string, ExchangeSummary[]>();
  /** Responses that came before their request, by pair key. */
  private readonly orphans = new Map<string, ExchangeSummary>();
  /** Pending requests by `sessionKey|progressToken`. */
  private readonly progress = new Map<string, ExchangeSummary>();
  /** Where each pending exchange is filed in `progress` and `byConnection`, so close() is O(1). */
  private readonly indexedUnder = new Map<ExchangeSummary, { progressKey: string | undefined; conn: string | undefined }>();
  /** Junk sent by a client, by connection: the server's id-null error that follows answers it. */
  private readonly junkRequests = new Map<string, ExchangeSummary>();
  /** Exchanges answered by junk, by connection: a transport frame that follows explains the junk. */
  private readonly cutShort = new Map<string, ExchangeSummary>();
  /** Pending requests by the HTTP connection that carried them, for transport failures. */
  private readonly byConnection = new Map<string, Set<ExchangeSummary>>();
  /** Ids of orphans let go of by the last ingest (see takeEvicted). */
  private evicted: string[] = [];

  /** Feeds one frame; returns the exchanges it created or changed (copies, safe to keep). */
  ingest(frame: Frame, message: Message = classifyText(frame.raw)): ExchangeSummary[] {
    const changed = new Set<ExchangeSummary>();
    this.evicted = [];
    if (frame.kind === 'log') return [];
    if (frame.kind === 'transport') {
      this.transportFailure(frame, changed);
    } else if (message.kind === 'batch') {
      message.items.forEach((item, index) => this.one(frame, item, `${frame.seq}.${index}`, changed));
    } else {
      this.one(frame, message, String(frame.seq), changed);
    }
    if (frame.kind === 'data' && isWholeJsonAnswer(frame, message)) this.carrierEnded(frame, changed);
    return [...changed].map((ex) => ({ ...ex, frameSeqs: [...ex.frameSeqs] }));
  }

  /** Orphans the last ingest stopped waiting on: they will never change again. */
  takeEvicted(): string[] {
    const out = this.evicted;
    this.evicted = [];
    return out;
  }

  /** Whether pairing may still change this exchange (a request waiting for its answer, an answer for its request). */
  holds(ex: Pick<ExchangeSummary, 'id' | 'sessionKey' | 'requester' | 'rpcId'>): boolean {
    if (ex.requester === 'none' || ex.rpcId === undefined || ex.rpcId === null) return false;
    const key = pairKey(ex.sessionKey, ex.requester, ex.rpcId);
    return this.open.get(key)?.id === ex.id || this.orphans.get(key)?.id === ex.id || (this.shadowed.get(key)?.some((e) => e.id === ex.id) ?? false);
  }

  /**
   * Whether a row that looks settled may still take a frame: junk waiting for the server's id-null
   * answer, or a malformed answer waiting for word that its body broke. (Both maps are bounded.)
   */
  awaitsMore(id: string): boolean {
    for (const row of this.junkRequests.values()) if (row.id === id) return true;
    for (const row of this.cutShort.values()) if (row.id === id) return true;
    return false;
  }

  /** The pending request `side` sent with `id` in the session, if any (read-only: do not mutate). */
  pendingRequest(sessionKey: string, side: 'client' | 'server', id: string | number): Readonly<ExchangeSummary> | undefined {
    return this.open.get(pairKey(sessionKey, side, id));
  }

  /** What the tracker holds, as plain JSON (see tracker-state.ts). */
  snapshot(): TrackerState {
    const rows = new RowNumbering();
    const state: Omit<TrackerState, 'rows'> = {
      open: rows.entries(this.open),
      orphans: rows.entries(this.orphans),
      progress: rows.entries(this.progress),
      junkRequests: rows.entries(this.junkRequests),
      cutShort: rows.entries(this.cutShort),
      byConnection: [...this.byConnection].map(([conn, set]) => [conn, [...set].map((ex) => rows.ref(ex))]),
      indexedUnder: [...this.indexedUnder].map(([ex, u]) => [rows.ref(ex), u.progressKey ?? null, u.conn ?? null]),
      shadowed: [...this.shadowed].map(([key, list]) => [key, list.map((ex) => rows.ref(ex))]),
    };
    return { rows: rows.rows(), ...state };
  }

  /** A tracker that continues exactly where the one that made `state` was. Throws on a malformed state. */
  static restore(state: TrackerState): ExchangeTracker {
    const t = new ExchangeTracker();
    const rows = new RowTable(state.rows);
    rows.fill(t.open, state.open);
    rows.fill(t.orphans, state.orphans);
    rows.fill(t.progress, state.progress);
    rows.fill(t.junkRequests, state.junkRequests);
    rows.fill(t.cutShort, state.cutShort);
    for (const [conn, list] of state.byConnection) t.byConnection.set(conn, new Set(list.map((i) => rows.at(i))));
    for (const [i, progressKey, conn] of state.indexedUnder) {
      t.indexedUnder.set(rows.at(i), { progressKey: progressKey ?? undefined, conn: conn ?? undefined });
    }
    for (const [key, list] of state.shadowed ?? []) t.shadowed.set(key, list.map((i) => rows.at(i)));
    return t;
  }

  /** Number of exchanges still waiting for an answer (for tests and memory checks). */
  get pendingCount(): number {
    return this.open.size;
  }

  private one(frame: Frame, message: Message, rowId: string, changed: Set<ExchangeSummary>): void {
    switch (message.kind) {
      case 'request':
        return this.request(frame, message, rowId, changed);
      case 'notification':
        return this.notification(frame, message, rowId, changed);
      case 'response':
      case 'error':
        return this.answer(frame, message, rowId, changed);
      case 'invalid':
        return this.invalid(frame, message.reason, rowId, changed);
      case 'batch':
        // A batch nested inside a batch is not JSON-RPC.
        return this.invalid(frame, 'a batch may not contain another batch', rowId, changed);
    }
  }

  private request(frame: Frame, msg: RequestMessage, rowId: string, changed: Set<ExchangeSummary>): void {
    const side = sideOf(frame.direction);
    const key = pairKey(frame.sessionKey, side, msg.id);
    const target = targetOf(msg.method, msg.params);
    const early = this.orphans.get(key);
    if (early) {
      // The answer was captured first (another stream, or capture order): pair them now.
      this.orphans.delete(key);
      early.requester = side;
      early.kind = 'request';
      early.method = msg.method;
      if (target !== undefined) early.target = target;
      early.requestSeq = frame.seq;
      early.frameSeqs.unshift(frame.seq);
      early.size += bodyBytes(frame);
      early.status = early.errorCode !== undefined ? 'protocol_error' : early.status === 'orphan' ? 'ok' : early.status;
      early.updatedSeq = frame.seq;
      changed.add(early);
      return;
    }
    const ex = requestRow(frame, msg, rowId, side, target);
    const earlier = this.open.get(key);
    if (earlier) {
      // An id reused while still in flight: the earlier request keeps waiting for its own answer.
      ex.diagnostics++;
      const list = this.shadowed.get(key);
      if (list) list.push(earlier);
      else this.shadowed.set(key, [earlier]);
      // A sender that reuses one id without end must not grow this without limit.
      if (list && list.length > MAX_SHADOWED) {
        const oldest = list[0]!;
        this.close(key, oldest);
        this.evicted.push(oldest.id);
      }
    }
    this.open.set(key, ex);
    if (this.open.size > MAX_IN_FLIGHT) {
      // A server that never answers (or a stdio child that ignores requests) must not grow this
      // without end: the oldest unanswered request stays pending, and a very late answer to it
      // shows as an orphan.
      const [oldestKey, oldest] = this.open.entries().next().value!;
      this.close(oldestKey, oldest);
      this.evicted.push(oldest.id);
    }
    const token = progressTokenOf(msg.params);
    const progressKey = token === undefined ? undefined : `${frame.sessionKey}|${idKey(token)}`;
    if (progressKey !== undefined) this.progress.set(progressKey, ex);
    const conn = frame.http?.connectionId;
    if (conn) {
      let set = this.byConnection.get(conn);
      if (!set) this.byConnection.set(conn, (set = new Set()));
      set.add(ex);
    }
    if (progressKey !== undefined || conn) this.indexedUnder.set(ex, { progressKey, conn });
    changed.add(ex);
  }

  private answer(frame: Frame, msg: ResponseMessage | ErrorMessage, rowId: string, changed: Set<ExchangeSummary>): void {
    const requesterSide = otherSide(sideOf(frame.direction));
    let ex: ExchangeSummary | undefined;
    let key: string | undefined;
    if (msg.id === null) {
      // An error to an unparseable request: on HTTP it answers the junk sent on its own connection.
      const junk = frame.http?.connectionId ? this.junkRequests.get(frame.http.connectionId) : undefined;
      if (junk) {
        this.junkRequests.delete(frame.http!.connectionId!);
        if (msg.kind === 'error') {
          junk.errorCode = msg.error.code;
          junk.errorMessage = `${junk.errorMessage ?? ''} — the server answered ${msg.error.code} ${msg.error.message}`.replace(/^ — /, '');
        }
        junk.responseSeq = frame.seq;
        junk.endTs = frame.ts;
        junk.latencyMs = frame.ts - junk.startTs;
        return attach(junk, frame, changed);
      }
      ex = this.onlyPendingOn(frame.http?.connectionId);
      if (ex) key = pairKey(ex.sessionKey, requesterSide, ex.rpcId as string | number);
    } else {
      key = pairKey(frame.sessionKey, requesterSide, msg.id);
      ex = this.awaitingAnswer(key, frame.http?.connectionId);
    }
    if (!ex || !key) {
      const orphan = orphanRow(frame, msg, rowId, requesterSide);
      if (msg.id !== null) this.addOrphan(pairKey(frame.sessionKey, requesterSide, msg.id), orphan);
      changed.add(orphan);
      return;
    }
    this.close(key, ex);
    ex.responseSeq = frame.seq;
    ex.frameSeqs.push(frame.seq);
    ex.size += bodyBytes(frame);
    ex.endTs = frame.ts;
    ex.latencyMs = frame.ts - ex.startTs;
    ex.updatedSeq = frame.seq;
    if (ex.status !== 'cancelled') applyOutcome(ex, msg);
    changed.add(ex);
  }

  private notification(frame: Frame, msg: NotificationMessage, rowId: string, changed: Set<ExchangeSummary>): void {
    const params = msg.params;
    if (msg.method === 'notifications/progress' && params && 'progressToken' in params) {
      const ex = this.progress.get(`${frame.sessionKey}|${idKey(params.progressToken as string | number)}`);
      if (ex) {
        noteProgress(ex, frame);
        return attach(ex, frame, changed);
      }
    }
    if (msg.method === 'notifications/cancelled' && params && 'requestId' in params) {
      const requestId = params.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        // The canceller is the side that sent the request.
        const ex = this.open.get(pairKey(frame.sessionKey, sideOf(frame.direction), requestId));
        if (ex) {
          ex.status = 'cancelled';
          if (typeof params.reason === 'string') ex.errorMessage = params.reason;
          return attach(ex, frame, changed);
        }
      }
    }
    changed.add(notificationRow(frame, msg, rowId));
  }

  private invalid(frame: Frame, reason: string, rowId: string, changed: Set<ExchangeSummary>): void {
    if (this.cutAnswer(frame, changed)) return;
    // Junk that answers a request on the same HTTP connection belongs to that request's row.
    const ex = frame.direction === 's2c' ? this.onlyPendingOn(frame.http?.connectionId) : undefined;
    if (ex) {
      this.close(pairKey(ex.sessionKey, ex.requester as Side, ex.rpcId as string | number), ex);
      ex.size += bodyBytes(frame);
      const failed = (frame.http?.status ?? 200) >= 400;
      ex.status = failed ? 'transport_error' : 'invalid';
      ex.errorMessage = failed ? `HTTP ${frame.http?.status}: ${reason}` : `malformed response: ${reason}`;
      if (frame.http && isAuthorizationAnswer(frame.http, frame.raw)) {
        ex.transportEvent = 'authorization-required';
        ex.errorMessage = authorizationMessage(frame.http);
      }
      ex.responseSeq = frame.seq;
      ex.endTs = frame.ts;
      ex.latencyMs = frame.ts - ex.startTs;
      // A body cut by a broken connection arrives as junk, then the tap's transport frame says why.
      if (frame.http?.connectionId) {
        this.cutShort.set(frame.http.connectionId, ex);
        // Bounded: an upstream that answers junk forever must not grow this without limit.
        if (this.cutShort.size > 1024) this.evictOldest(this.cutShort);
      }
      return attach(ex, frame, changed);
    }
    const row = invalidRow(frame, reason, rowId);
    changed.add(row);
    // The server's answer to junk (an error with id null) arrives on the same HTTP connection.
    if (frame.direction === 'c2s' && frame.http?.connectionId) {
      this.junkRequests.set(frame.http.connectionId, row);
      if (this.junkRequests.size > 1024) this.evictOldest(this.junkRequests);
    }
  }

  /**
   * An answer too large to keep whole (frame.http.cut) cannot be parsed, but its head names the
   * request it answers and whether it is a result or an error (cut-envelope.ts): it settles that
   * request as ok or protocol_error, its size counted whole, instead of reading as malformed.
   */
  private cutAnswer(frame: Frame, changed: Set<ExchangeSummary>): boolean {
    const cut = frame.http?.cut;
    if (!cut || (frame.http?.status ?? 200) >= 400) return false;
    const envelope = cutEnvelope(frame.raw);
    if (!envelope) return false;
    const key = envelope.id === undefined ? undefined : pairKey(frame.sessionKey, otherSide(sideOf(frame.direction)), envelope.id);
    const ex = key === undefined ? this.onlyPendingOn(frame.http?.connectionId) : this.open.get(key);
    if (!ex) return false;
    this.close(pairKey(ex.sessionKey, ex.requester as Side, ex.rpcId as string | number), ex);
    ex.responseSeq = frame.seq;
    ex.size += bodyBytes(frame);
    ex.endTs = frame.ts;
    ex.latencyMs = frame.ts - ex.startTs;
    if (ex.status !== 'cancelled') {
      ex.status = envelope.member === 'result' ? 'ok' : 'protocol_error';
      if (envelope.member === 'error') ex.errorMessage = `an error answer too large to keep whole (${cut.size} bytes)`;
    }
    attach(ex, frame, changed);
    return true;
  }

  /** Lets go of the oldest waiting row; the deriver then forgets what it kept for it. */
  private evictOldest(waiting: Map<string, ExchangeSummary>): void {
    const [key, row] = waiting.entries().next().value!;
    waiting.delete(key);
    this.evicted.push(row.id);
  }

  private transportFailure(frame: Frame, changed: Set<ExchangeSummary>): void {
    const { event, message } = parseTransportFrame(frame.raw);
    // The client leaving abandons what it waited for (in 2026-07-28 that is the cancellation);
    // a client closing an idle stream is ordinary and makes no row.
    const clientLeft = event === 'client-disconnected';
    const pending = frame.http?.connectionId ? this.byConnection.get(frame.http.connectionId) : undefined;
    if (event === 'stream-ended') return this.carrierEnded(frame, changed, `the server ended the event stream of the ${frame.http?.method ?? 'request'} that carried this request (#${frame.seq})`);
    if (clientLeft && (!pending || pending.size === 0)) return;
    const partial = frame.http?.connectionId ? this.cutShort.get(frame.http.connectionId) : undefined;
    if (partial && (!pending || pending.size === 0)) {
      // The malformed answer was the start of a body that broke: that is a transport failure.
      this.cutShort.delete(frame.http!.connectionId!);
      partial.status = 'transport_error';
      partial.errorMessage = message;
      if (isTransportEvent(event)) partial.transportEvent = event;
      return attach(partial, frame, changed);
    }
    if (pending && pending.size > 0) {
      for (const ex of [...pending]) {
        if (ex.status !== 'pending') continue;
        this.close(pairKey(ex.sessionKey, ex.requester as Side, ex.rpcId as string | number), ex);
        ex.status = clientLeft ? 'cancelled' : 'transport_error';
        ex.errorMessage = message;
        if (isTransportEvent(event)) ex.transportEvent = event;
        ex.endTs = frame.ts;
        ex.latencyMs = frame.ts - ex.startTs;
        attach(ex, frame, changed);
      }
      return;
    }
    changed.add(transportRow(frame, message, isTransportEvent(event) ? event : undefined));
  }

  private addOrphan(key: string, orphan: ExchangeSummary): void {
    const replaced = this.orphans.get(key);
    if (replaced) this.evicted.push(replaced.id);
    this.orphans.delete(key);
    this.orphans.set(key, orphan);
    if (this.orphans.size > MAX_ORPHANS) {
      const [oldestKey, oldest] = this.orphans.entries().next().value!;
      this.orphans.delete(oldestKey);
      this.evicted.push(oldest.id);
    }
  }

  /**
   * The request an answer with this pair key answers: the one its own HTTP exchange carried, else
   * (an answer on another stream, stdio) the oldest still in flight under the key.
   */
  private awaitingAnswer(key: string, connectionId: string | undefined): ExchangeSummary | undefined {
    const latest = this.open.get(key);
    const earlier = this.shadowed.get(key);
    if (!earlier || !latest) return latest;
    const candidates = [...earlier, latest];
    return (connectionId !== undefined && candidates.find((ex) => this.indexedUnder.get(ex)?.conn === connectionId)) || candidates[0];
  }

  /**
   * A POST's whole answer has come (its JSON body, or the end of its event stream): what that POST
   * carried and the answer left out will never be answered. Nothing left waiting: no row.
   */
  private carrierEnded(frame: Frame, changed: Set<ExchangeSummary>, how = `the server's JSON answer to the ${frame.http?.method ?? 'request'} that carried this request (#${frame.seq})`): void {
    const connectionId = frame.http?.connectionId;
    const pending = connectionId === undefined ? undefined : this.byConnection.get(connectionId);
    if (!pending) return;
    for (const ex of [...pending]) {
      if (ex.status !== 'pending' || ex.requester !== 'client') continue;
      this.close(pairKey(ex.sessionKey, ex.requester, ex.rpcId as string | number), ex);
      ex.status = 'transport_error';
      ex.transportEvent = 'unanswered';
      ex.errorMessage = `Never answered: ${how} has no reply with id ${JSON.stringify(ex.rpcId)}.`;
      ex.endTs = frame.ts;
      ex.latencyMs = frame.ts - ex.startTs;
      ex.updatedSeq = frame.seq;
      changed.add(ex);
    }
  }

  private onlyPendingOn(connectionId: string | undefined): ExchangeSummary | undefined {
    if (!connectionId) return undefined;
    const set = this.byConnection.get(connectionId);
    if (!set || set.size !== 1) return undefined;
    return set.values().next().value;
  }

  private close(key: string, ex: ExchangeSummary): void {
    const earlier = this.shadowed.get(key);
    if (this.open.get(key) === ex) {
      // The latest request under the key is settled: an earlier one still in flight takes its place.
      const next = earlier?.pop();
      if (next) this.open.set(key, next);
      else this.open.delete(key);
    } else if (earlier) {
      const at = earlier.indexOf(ex);
      if (at !== -1) earlier.splice(at, 1);
    }
    if (earlier?.length === 0) this.shadowed.delete(key);
    // Only the entries this exchange was filed under: closing must not cost a walk over every
    // request in flight (it runs once per answer, on the capture's hot path).
    const under = this.indexedUnder.get(ex);
    if (!under) return;
    this.indexedUnder.delete(ex);
    // A later request may have taken over the same progress token: leave its entry alone.
    if (under.progressKey !== undefined && this.progress.get(under.progressKey) === ex) this.progress.delete(under.progressKey);
    if (under.conn !== undefined) {
      const set = this.byConnection.get(under.conn);
      if (set?.delete(ex) && set.size === 0) this.byConnection.delete(under.conn);
    }
  }
}

function pairKey(sessionKey: string, requester: Side, id: string | number): string {
  return `${sessionKey}\u0000${requester}\u0000${idKey(id)}`;
}

function progressTokenOf(params: JsonObject | undefined): string | number | undefined {
  const meta = params?._meta;
  if (!isJsonObject(meta)) return undefined;
  const token = meta.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * A server's JSON (not SSE) answer to a POST: the whole reply of that HTTP exchange. Only data
 * that answers (a response, an error with an id, a batch of them); an id-null error or junk is
 * handled by the rows it explains.
 */
function isWholeJsonAnswer(frame: Frame, message: Message): boolean {
  if (frame.direction !== 's2c' || frame.transport !== 'http-json' || frame.http?.method !== 'POST' || frame.http.connectionId === undefined) return false;
  if (message.kind === 'batch') return message.items.some((item) => item.kind === 'response' || (item.kind === 'error' && item.id !== null));
  return message.kind === 'response' || (message.kind === 'error' && message.id !== null);
}
