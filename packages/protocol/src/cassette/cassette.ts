/**
 * A capture as a script: every client→server call with its captured answer and what the server
 * sent while answering it (progress, log messages, sampling or elicitation requests, each at its
 * offset from the request and, for a request, with the client's captured reply), grouped by
 * session in capture order. `mcpscope mock` serves it; `mcpscope verify` plays the client side
 * of it against a live server and compares.
 *
 * Built from frames alone, through the same CaptureDeriver the capture pipeline runs, so a call
 * has the status the dashboard shows it with. What cannot be used is reported as a problem,
 * never thrown: half an exchange, a session on a revision mcpscope does not know, junk frames.
 * Calls mcpscope sent itself (dashboard replays) are left out: they are not the client's. So is
 * a request the server redirected and the client sent again: the call is the one sent again.
 */
import { CaptureDeriver, type CaptureDeriverDeps } from '../derive/capture-deriver.js';
import type { ExchangeStatus, ExchangeSummary } from '../model/exchange.js';
import type { Frame, HttpInfo } from '../model/frame.js';
import { parseTransportFrame } from '../model/transport-frame.js';
import { followedRedirects, markRedirectedNotifications } from '../pairing/followed-redirects.js';
import { classifyText, type JsonObject, type JsonRpcId, type Message } from '../model/json-rpc.js';
import type { SessionSummary } from '../session/session-summary.js';
import { isRevision } from '../revisions/revisions.js';
import { wireValue } from '../derive/item-context.js';
import { EventIndex, type CassetteEvent } from './cassette-events.js';
import { buildPushes, type CassettePush } from './cassette-pushes.js';

export type { CassetteEvent } from './cassette-events.js';
export type { CassettePush, PushTrigger } from './cassette-pushes.js';

export interface CassetteCall {
  /** The original exchange's id (the request frame's seq), for reports and links. */
  exchangeId: string;
  sessionKey: string;
  method: string;
  target?: string;
  id: JsonRpcId;
  params?: JsonObject;
  /** The request as the client sent it (one item of a batch when it was batched). */
  request: JsonObject;
  status: ExchangeStatus;
  /** The JSON-RPC answer (result or error), when the capture holds one. */
  answer?: JsonObject;
  /** For a transport error: the tap's account of it (upstream down, stream cut). */
  failure?: string;
  /** How the answer travelled: on an SSE stream, or as one JSON body. */
  stream: boolean;
  /** The HTTP status the client got, when known. */
  httpStatus?: number;
  /** The request's HTTP path (and query) and the client's headers (secrets redacted at capture). */
  path?: string;
  headers?: Record<string, string>;
  startTs: number;
  /** When the answer arrived, as ms after the request. */
  answerOffsetMs?: number;
  /** What the server sent during the call, in order. */
  events: CassetteEvent[];
  /** 2026-07-28 MRTR: the call whose `input_required` answer this retry follows. */
  chainOf?: string;
  /** The exchange as the capture derived it (for the filter language). */
  exchange: ExchangeSummary;
  /** Codes of the exchange's diagnostics (for `diag:`). */
  diagnosticCodes: string[];
}

/** A client notification (initialized, cancelled, roots/list_changed), kept in session order. */
export interface CassetteNotification {
  exchangeId: string;
  method: string;
  message: JsonObject;
  ts: number;
}

export type CassetteStep = { kind: 'call'; call: CassetteCall } | { kind: 'notification'; notification: CassetteNotification };

export interface CassetteSession {
  sessionKey: string;
  era: 'legacy' | 'modern';
  protocolVersion?: string;
  clientInfo?: JsonObject;
  clientCapabilities?: JsonObject;
  serverInfo?: JsonObject;
  /** The server minted `Mcp-Session-Id` on initialize (a stateful legacy server). */
  statefulServer: boolean;
  /** The session's `initialize` call (legacy era). */
  initialize?: CassetteCall;
  /** Calls and client notifications, in capture order (initialize included). */
  steps: CassetteStep[];
  /** What the server sent on its own, outside any call's answer, each after its trigger (cassette-pushes.ts). */
  pushes: CassettePush[];
  firstTs: number;
  /** The session as the capture derived it (for the filter language). */
  summary?: SessionSummary;
}

export interface CassetteProblem {
  /** `exchange 12`, `frame 40`, `session abc`. */
  where: string;
  message: string;
}

export interface Cassette {
  sessions: CassetteSession[];
  /** Every call of every session, in capture order. */
  calls: CassetteCall[];
  /** The HTTP paths the client posted to (`/mcp`), most used first. */
  paths: string[];
  /** HTTP+SSE (2024-11-05 transport): the paths of the client's event stream (`/sse`) and of its posts (`/message`). */
  legacySse: { streamPaths: string[]; postPaths: string[] };
  problems: CassetteProblem[];
  /** Calls mcpscope itself replayed from the dashboard, left out. */
  replaysLeftOut: number;
  /** Requests and notifications the server redirected and the client sent again (followed-redirects.ts), left out: the message is the one sent again. */
  redirectsLeftOut: number;
}

/** Capture order of exchange ids: `12` < `12.1` < `13` (a batch's items after their frame's seq). */
function byId(a: ExchangeSummary, b: ExchangeSummary): number {
  const [sa, ia] = a.id.split('.');
  const [sb, ib] = b.id.split('.');
  return Number(sa) - Number(sb) || Number(ia ?? -1) - Number(ib ?? -1);
}

/** Frames between two drops of the conversations a cassette's deriver changed. */
const DROP_CONVERSATIONS_EVERY = 1024;

/** Builds the script of a capture. `frames` in capture order (as stored, or as an import reads them). */
export function buildCassette(frames: readonly Frame[], deps: CaptureDeriverDeps = {}): Cassette {
  const deriver = new CaptureDeriver(deps);
  const exchanges = new Map<string, ExchangeSummary>();
  const messages = new Map<number, Message>();
  const codes = new Map<string, string[]>();
  for (const [i, frame] of frames.entries()) {
    const message = classifyText(frame.raw);
    if (frame.kind === 'data') messages.set(frame.seq, message);
    const derived = deriver.ingest(frame, message);
    // A cassette has no conversations (deriving them still shapes the checks): dropped now and then,
    // as the deriver holds the ones it let go until they are taken.
    if (i % DROP_CONVERSATIONS_EVERY === DROP_CONVERSATIONS_EVERY - 1) deriver.takeConversations();
    for (const ex of derived.exchanges) exchanges.set(ex.id, ex);
    for (const d of derived.diagnostics) {
      if (d.exchangeId === undefined) continue;
      const list = codes.get(d.exchangeId);
      if (list) list.push(d.code);
      else codes.set(d.exchangeId, [d.code]);
    }
  }
  const bySeq = new Map(frames.map((f) => [f.seq, f]));
  const problems: CassetteProblem[] = [];
  const sessions = new Map<string, CassetteSession>();
  const calls: CassetteCall[] = [];
  const pathCounts = new Map<string, number>();
  let replaysLeftOut = 0;
  let redirectsLeftOut = 0;
  const events = new EventIndex(frames, bySeq, messages, exchanges.values());
  const ordered = [...exchanges.values()].sort(byId);
  const followed = followedRedirects(markRedirectedNotifications(ordered, (seq) => bySeq.get(seq)));
  const clientSteps = new Map<number, { kind: 'call' | 'notification'; exchangeId: string }>();
  const callTs = new Map<string, number>();

  for (const ex of ordered) {
    // An exchange's id is the seq of the frame that opened it (`.N` for a batch item).
    const openedBy = Number(ex.id.split('.')[0]);
    const frame = bySeq.get(ex.requestSeq ?? openedBy);
    if (ex.status === 'invalid') {
      problems.push({ where: `frame ${openedBy}`, message: 'not a JSON-RPC message; left out' });
      continue;
    }
    if (ex.status === 'orphan') {
      problems.push({ where: `exchange ${ex.id}`, message: `an answer (id ${JSON.stringify(ex.rpcId)}) whose request is not in the capture; left out` });
      continue;
    }
    if (!frame || ex.direction !== 'c2s') continue;
    if (frame.transport === 'replay') {
      replaysLeftOut++;
      continue;
    }
    if (followed.has(ex.id)) {
      redirectsLeftOut++;
      continue;
    }
    const item = itemOf(messages.get(frame.seq), ex.id);
    const session = sessionOf(sessions, ex.sessionKey, deriver.session(ex.sessionKey), frame.ts);
    if (ex.kind === 'notification' && item?.kind === 'notification') {
      session.steps.push({ kind: 'notification', notification: { exchangeId: ex.id, method: item.method, message: wireValue(item), ts: frame.ts } });
      if (!clientSteps.has(frame.seq)) clientSteps.set(frame.seq, { kind: 'notification', exchangeId: ex.id });
      continue;
    }
    if (ex.requester !== 'client' || item?.kind !== 'request') continue;
    const call = toCall(ex, item, frame, bySeq, messages, events);
    call.diagnosticCodes = codes.get(ex.id) ?? [];
    if (call.path !== undefined) {
      const pathname = call.path.replace(/\?.*$/, '');
      pathCounts.set(pathname, (pathCounts.get(pathname) ?? 0) + 1);
    }
    if (ex.status === 'pending') problems.push({ where: `exchange ${ex.id}`, message: `${describe(call)} has no answer in the capture (the capture ended first, or the answer was lost); a mock cannot answer it and verify has nothing to compare it with` });
    if (ex.status === 'cancelled') problems.push({ where: `exchange ${ex.id}`, message: `${describe(call)} was cancelled by the client; verify re-sends it but does not compare` });
    if (call.method === 'initialize') {
      session.initialize ??= call;
      session.statefulServer ||= answerHeader(ex, bySeq, 'mcp-session-id') !== undefined;
    }
    session.steps.push({ kind: 'call', call });
    calls.push(call);
    if (!clientSteps.has(frame.seq)) clientSteps.set(frame.seq, { kind: 'call', exchangeId: ex.id });
    callTs.set(ex.id, frame.ts);
  }
  const pushes = buildPushes({ frames, messages, exchanges: exchanges.values(), claimed: events.claimed, clientSteps, callTs });
  for (const s of sessions.values()) s.pushes = pushes.get(s.sessionKey) ?? [];
  for (const s of sessions.values()) {
    if (s.protocolVersion !== undefined && !isRevision(s.protocolVersion)) {
      problems.push({ where: `session ${s.sessionKey}`, message: `negotiated protocol revision "${s.protocolVersion}", which mcpscope does not know; its calls are used as captured, in the ${s.era} era` });
    }
  }
  if (calls.length === 0) problems.push({ where: 'capture', message: frames.length === 0 ? 'the capture holds no frames' : 'the capture holds no client request with which to do anything' });
  const paths = [...pathCounts].sort((a, b) => b[1] - a[1]).map(([p]) => p);
  return { sessions: [...sessions.values()].sort((a, b) => a.firstTs - b.firstTs), calls, paths, legacySse: legacySsePaths(frames), problems, replaysLeftOut, redirectsLeftOut };
}

function toCall(ex: ExchangeSummary, item: Extract<Message, { kind: 'request' }>, frame: Frame, bySeq: Map<number, Frame>, messages: Map<number, Message>, events: EventIndex): CassetteCall {
  const call: CassetteCall = {
    exchangeId: ex.id,
    sessionKey: ex.sessionKey,
    method: item.method,
    id: item.id,
    request: wireValue(item),
    status: ex.status,
    stream: false,
    startTs: frame.ts,
    events: [],
    exchange: ex,
    diagnosticCodes: [],
  };
  if (ex.target !== undefined) call.target = ex.target;
  if (item.params) call.params = item.params;
  if (ex.chainOf !== undefined) call.chainOf = ex.chainOf;
  if (frame.http) {
    call.path = frame.http.path;
    if (frame.http.requestHeaders) call.headers = frame.http.requestHeaders;
  }
  const answerFrame = ex.responseSeq !== undefined ? bySeq.get(ex.responseSeq) : undefined;
  if (answerFrame && answerFrame.kind === 'data') {
    const answer = answerItem(messages.get(answerFrame.seq), item.id);
    if (answer) call.answer = answer;
    call.answerOffsetMs = Math.max(0, answerFrame.ts - frame.ts);
    call.stream = answerFrame.transport === 'sse' || answerFrame.http?.sseEvent !== undefined || answerFrame.http?.sseId !== undefined;
    if (answerFrame.http?.status !== undefined) call.httpStatus = answerFrame.http.status;
  }
  if (ex.status === 'transport_error') {
    const failure = ex.frameSeqs.map((s) => bySeq.get(s)).find((f) => f?.kind === 'transport');
    call.failure = failure ? parseTransportFrame(failure.raw).message : (ex.errorMessage ?? 'the transport failed');
    if (failure) {
      call.answerOffsetMs ??= Math.max(0, failure.ts - frame.ts);
      if (failure.http?.status !== undefined) call.httpStatus = failure.http.status;
    }
  }
  call.events = events.eventsOf(ex, frame);
  if (call.events.length > 0) call.stream = true;
  return call;
}

function sessionOf(sessions: Map<string, CassetteSession>, key: string, summary: SessionSummary | undefined, ts: number): CassetteSession {
  let s = sessions.get(key);
  if (!s) {
    s = { sessionKey: key, era: summary?.era ?? 'legacy', statefulServer: false, steps: [], pushes: [], firstTs: ts };
    if (summary) s.summary = summary;
    if (summary?.protocolVersion !== undefined) s.protocolVersion = summary.protocolVersion;
    if (summary?.clientInfo) s.clientInfo = summary.clientInfo;
    if (summary?.clientCapabilities) s.clientCapabilities = summary.clientCapabilities;
    if (summary?.serverInfo) s.serverInfo = summary.serverInfo;
    sessions.set(key, s);
  }
  return s;
}

/** Where an HTTP+SSE client opened its stream (the GET that carried the server's messages) and posted. */
function legacySsePaths(frames: readonly Frame[]): Cassette['legacySse'] {
  const streamPaths = new Set<string>();
  const postPaths = new Set<string>();
  for (const f of frames) {
    if (f.transport !== 'legacy-sse' || !f.http) continue;
    const path = f.http.path.replace(/\?.*$/, '');
    if (f.http.method === 'GET') streamPaths.add(path);
    else if (f.http.method === 'POST') postPaths.add(path);
  }
  return { streamPaths: [...streamPaths], postPaths: [...postPaths] };
}

/** The item of a (possibly batched) message that an exchange id names (`12` or `12.1`). */
function itemOf(message: Message | undefined, exchangeId: string): Exclude<Message, { kind: 'batch' }> | undefined {
  if (!message) return undefined;
  if (message.kind !== 'batch') return message;
  const index = Number(exchangeId.split('.')[1] ?? 0);
  const item = message.items[index];
  return item && item.kind !== 'batch' ? item : undefined;
}

/** The answer to `id` in a (possibly batched) answer frame, as wire JSON. */
function answerItem(message: Message | undefined, id: JsonRpcId): JsonObject | undefined {
  const items = !message ? [] : message.kind === 'batch' ? message.items : [message];
  for (const m of items) if ((m.kind === 'response' || m.kind === 'error') && (m.id === id || m.id === null)) return wireValue(m);
  return undefined;
}

function answerHeader(ex: ExchangeSummary, bySeq: Map<number, Frame>, name: string): string | undefined {
  const http: HttpInfo | undefined = ex.responseSeq !== undefined ? bySeq.get(ex.responseSeq)?.http : undefined;
  return http?.responseHeaders?.[name];
}

/** `tools/call "echo" (id 4)`, for messages. */
export function describe(call: Pick<CassetteCall, 'method' | 'target' | 'id'>): string {
  return `${call.method}${call.target !== undefined ? ` "${call.target}"` : ''} (id ${JSON.stringify(call.id)})`;
}
