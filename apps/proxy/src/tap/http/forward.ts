/**
 * Forwards one HTTP request to the upstream and records the JSON-RPC frames it carries in both
 * directions. Node streams end to end (no WHATWG fetch or web streams on the hot path): request
 * bytes are forwarded as received, response bytes are written to the client first and parsed
 * second, and backpressure carries from the client's socket to the upstream (pause on a full
 * socket, resume on drain). The client going away aborts the upstream request; the tap itself
 * never ends a request or a stream.
 *
 * A request body past HELD_BODY_BYTES is forwarded as it arrives instead of being held (on a
 * capture file its text goes to the large-frame writer thread as it streams). Capture keeps at
 * most `maxBodyBytes` of one body (capped-text.ts); a frame of a cut body says so (`http.cut`,
 * with the whole size). The pieces: client-request.ts reads the body and records the request (and
 * writes the tap's own transport frames), response-recorder.ts the answer.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FrameInput, HttpInfo } from '@mcpscope/protocol';
import type { LargeBody } from '../../capture/index.js';
import { capturedHeaders } from '../../upstream/captured-headers.js';
import { answerUpstreamFailure, describeError } from '../../upstream/failure.js';
import { downstreamResponseHeaders, headerValue, upstreamRequestHeaders } from '../../upstream/http-headers.js';
import { EndpointRewriter, legacySessionKey, rewriteEndpoint, type LegacyEndpoints } from './legacy-sse.js';
import { isProtectedResourceMetadataPath, rewriteProtectedResourceMetadata } from './public-origin.js';
import { statelessSessionKey } from './session-key.js';
import type { UpstreamRequest, UpstreamResponse } from '../../upstream/upstream-request.js';
import { UNWATCHED, type RequestWatch } from '../../core/request-watch.js';
import { isMcpEndpoint } from '../../core/mcp-endpoint.js';
import { MAX_CAPTURED_BODY_BYTES } from './capped-text.js';
import { HELD_BODY_BYTES, RequestRecorder, doorLink, hasRequestBody, isStreamed, linkedToDoor, readRequestBody, recordClientLeft, recordStreamError, recordUpstreamError, type RecordFrame, type RequestBody, type StreamedBody } from './client-request.js';
import { BodyRecorder, NOT_RECORDED, RedirectRecorder, SseRecorder, type ResponseFrames, type ResponseRecorder } from './response-recorder.js';
import { requestsIn } from './request-count.js';
import { redactUrlSecrets } from '../../redaction/redact-secrets.js';
import { rewriteOriginHeaders, sendRewrittenMetadata } from './rewritten-response.js';
import type { InterceptDecision, InterceptPort } from '../../core/intercept-port.js';
import { actsOnAnswer, answerInPlace, holdRequest, respondActing, type Acting, type Decided } from './intercepted.js';

export interface ForwardDeps {
  /** The upstream's origin; the tap mirrors its paths. */
  upstreamOrigin: string;
  /** The upstream MCP endpoint's path (also the legacy SSE endpoint's). */
  mcpPath: string;
  /** Message endpoints learnt from legacy `endpoint` events. */
  legacy: LegacyEndpoints;
  record(frame: FrameInput, large?: LargeBody): number;
  /** A body for the large-frame writer thread (capture/large-writer.ts), when capture has one. */
  largeBody?(): LargeBody | undefined;
  request: UpstreamRequest;
  now(): number;
  nextConnectionId(): string;
  /** `--public-url`'s base; without it the Host the client used names the tap. */
  publicBase?: string;
  /** The salted fingerprint of an `Authorization` value, taken before redaction (conversations join on it). */
  credentialOf?(authorization: string | undefined): string | undefined;
  /** Sees each MCP request's headers with its session key (replay keeps the credentials in memory). */
  onRequestHeaders?(sessionKey: string, headers: IncomingMessage['headers']): void;
  /** Bytes of one body capture keeps (MAX_CAPTURED_BODY_BYTES unless a test sets less). */
  maxBodyBytes?: number;
  /** Intercept rules (intercept/): asked about each held MCP POST only while a rule is enabled. */
  intercept?: InterceptPort;
}

export function forward(req: IncomingMessage, res: ServerResponse, deps: ForwardDeps, cors: Record<string, string> | undefined, watch: RequestWatch = UNWATCHED): void {
  if (!hasRequestBody(req)) return send(req, res, deps, cors, watch, undefined);
  const captureLimit = deps.maxBodyBytes ?? MAX_CAPTURED_BODY_BYTES;
  // A large body is forwarded as it arrives; on the MCP path, capture keeps its text as it streams.
  const spill = deps.largeBody && recordsPath(pathnameOf(req.url ?? '/'), deps) ? () => deps.largeBody!() : undefined;
  readRequestBody(req, { holdUpTo: Math.min(HELD_BODY_BYTES, captureLimit), captureLimit, ...(spill ? { spill } : {}) }, (body) => send(req, res, deps, cors, watch, body));
}

const pathnameOf = (url: string): string => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** What a stateless session key and an upstream failure's answer read: the body held, or a streamed body's first bytes. */
const requestText = (streamed: StreamedBody | undefined, heldText: string | undefined): string | undefined => (streamed ? Buffer.concat(streamed.head).toString('utf8') : heldText);

/** Whether the tap records the frames of requests to this path: the MCP endpoint, or a legacy session's POST endpoint. */
const recordsPath = (pathname: string, deps: ForwardDeps): boolean => isMcpEndpoint(pathname, deps.mcpPath) || deps.legacy.has(pathname);

/**
 * One request on its way: what the request and its answer share. Built once in `send`; afterwards
 * it gets flags, never a reference. V8 may allocate it straight into the old generation
 * (pretenuring), and an old object pointing at an answer's young objects keeps every answer alive
 * through the next scavenge: when `respond` stored its departure handler here (a closure over its
 * whole scope), each call promoted about 6 KB more and capture-off CPU per call rose by a fifth to
 * a third (bench/README.md, 4 Dec 2026).
 */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  deps: ForwardDeps;
  cors: Record<string, string> | undefined;
  watch: RequestWatch;
  record: RecordFrame;
  method: string;
  url: string;
  pathname: string;
  isLegacyPost: boolean;
  recordHere: boolean;
  connectionId: string;
  /** The public base the client used (rewritten origins point here). */
  base: string;
  /** The session known before forwarding (stateful Streamable HTTP, legacy POST). */
  knownKey: string | undefined;
  request: RequestRecorder;
  /** The request body's text when it was held whole and is recorded (what an SSE answer's replies are counted against). */
  heldText: string | undefined;
  /** Set when the client went away: nothing more is forwarded. */
  clientGone: boolean;
  /** Set once the answer streams: its own `close` listener records a departure from then on. */
  answering: boolean;
  /** The rule acting on this request's answer (undefined: none, the usual case). */
  acting: Acting | undefined;
}

function send(req: IncomingMessage, res: ServerResponse, deps: ForwardDeps, cors: Record<string, string> | undefined, watch: RequestWatch, body: RequestBody | undefined, decided?: Decided): void {
  const method = req.method ?? 'GET';
  const acting: Acting | undefined = decided ? { ...decided, requestSeq: -1 } : undefined;
  const record = acting ? actingRecord(linkedToDoor(deps.record, watch), acting) : linkedToDoor(deps.record, watch);
  const url = req.url ?? '/';
  const pathname = pathnameOf(url);
  const search = url.slice(pathname.length);
  const isLegacyPost = deps.legacy.has(pathname);
  const recordHere = recordsPath(pathname, deps);
  const startTs = deps.now();
  const connectionId = deps.nextConnectionId();
  const streamed = isStreamed(body) ? body : undefined;
  const held = body !== undefined && 'bytes' in body ? body.bytes : undefined;
  const heldText = recordHere && held !== undefined && held.length > 0 ? held.toString('utf8') : undefined;
  // Frames name the HTTP request they rode on, as the door recorded it.
  const http: HttpInfo = { method, path: url, connectionId, ...doorLink(watch) };
  if (recordHere) {
    http.requestHeaders = capturedHeaders(req.headers);
    const credential = deps.credentialOf?.(headerValue(req.headers, 'authorization'));
    if (credential !== undefined) http.credential = credential;
  }
  const proto = (headerValue(req.headers, 'x-forwarded-proto') ?? 'http').split(',')[0]!.trim();
  const base = deps.publicBase ?? `${proto}://${req.headers.host ?? 'localhost'}`;

  // Legacy POSTs name their session in the query; stateful Streamable HTTP in a header. Then the
  // request is recorded before it is forwarded, so it always precedes what it causes.
  const knownKey = isLegacyPost ? legacySessionKey(search, pathname) : headerValue(req.headers, 'mcp-session-id');
  if (decided === undefined && heldText !== undefined && deps.intercept?.active && method === 'POST') {
    const decision = deps.intercept.decide(heldText, knownKey, startTs);
    if (decision) return interceptRequest(req, res, deps, cors, watch, decision, heldText, knownKey ?? statelessSessionKey(headerValue(req.headers, 'user-agent'), heldText));
  }
  if (acting) {
    http.rule = acting.decision.mark;
    if (acting.edited !== undefined) http.injected = { ...acting.decision.mark, what: 'changed' };
  }
  const request = new RequestRecorder({ recordHere, text: heldText, streamed, transport: isLegacyPost ? 'legacy-sse' : 'http-json', ts: startTs, http, headers: req.headers, onRequestHeaders: deps.onRequestHeaders }, record);
  if (knownKey !== undefined) request.recordAs(knownKey, false);
  const fallbackKey = () => statelessSessionKey(headerValue(req.headers, 'user-agent'), requestText(streamed, heldText));

  // Fired when the client leaves: undici aborts the upstream request (upstream-request.ts).
  const abortUpstream = new EventEmitter();
  const exchange: Exchange = {
    req, res, deps, cors, watch, record, method, url, pathname, isLegacyPost, recordHere, connectionId, base, knownKey, request, heldText,
    clientGone: false,
    answering: false,
    acting,
  };
  if (streamed) {
    // Answered before the client sent its whole body (a server that did not need it): the rest is
    // read and dropped, as a Node server does, so the client can finish sending and keep its
    // connection, and capture still counts it.
    res.once('finish', () => {
      if (req.readableEnded) return;
      req.unpipe(streamed.stream);
      req.resume();
    });
  }
  res.on('close', () => {
    if (res.writableFinished) return;
    exchange.clientGone = true;
    abortUpstream.emit('abort');
    if (exchange.answering) return;
    // Before the answer: the request's departure.
    request.recordAs(request.sessionKey ?? fallbackKey());
    if (recordHere && request.recorded) recordClientLeft(record, deps.now, request.sessionKey!, 'http-json', http);
  });

  deps
    .request(deps.upstreamOrigin + url, { method, headers: upstreamRequestHeaders(req.headers, proto), body: streamed ? streamed.stream : held, signal: abortUpstream })
    .then(
      (up) => {
        if (exchange.clientGone) return void up.body.destroy();
        request.recordAs(request.sessionKey ?? headerValue(up.headers, 'mcp-session-id') ?? fallbackKey());
        if (acting) return void respondOnce(exchange, acting, up);
        respond(exchange, up);
      },
      (err: unknown) => {
        if (exchange.clientGone) return;
        const key = request.sessionKey ?? fallbackKey();
        request.recordAs(key);
        const reason = describeError(err);
        if (recordHere) recordUpstreamError(record, deps.now, key, reason, { method, path: url, status: 502, connectionId, ...doorLink(watch) });
        watch.upstreamFailed(reason);
        answerUpstreamFailure(res, requestText(streamed, heldText), reason, cors);
      },
    );
}

/**
 * A rule matched this request: it is answered in the server's place, or held (pause, delay) and
 * then sent on as it was or edited, or sent on at once with the rule acting on its answer.
 */
function interceptRequest(req: IncomingMessage, res: ServerResponse, deps: ForwardDeps, cors: Record<string, string> | undefined, watch: RequestWatch, decision: InterceptDecision, text: string, sessionKey: string): void {
  const sendOn = (held: Omit<Decided, 'decision'>) => send(req, res, deps, cors, watch, { bytes: Buffer.from(held.edited ?? text) }, { decision, ...held });
  const type = decision.action.type;
  if (type === 'error' || type === 'is-error' || type === 'replace' || type === 'http') {
    const http: HttpInfo = { method: 'POST', path: req.url ?? '/', connectionId: deps.nextConnectionId(), requestHeaders: capturedHeaders(req.headers), rule: decision.mark, ...doorLink(watch) };
    return answerInPlace({ res, record: linkedToDoor(deps.record, watch), now: deps.now, cors, http, sessionKey, watch }, decision, text);
  }
  if (type !== 'delay' && !(decision.action.type === 'pause' && decision.action.on === 'request')) return sendOn({ note: '' });
  holdRequest(decision, text, sessionKey, res, (held) => {
    if (held === undefined) {
      decision.done({ sessionKey, requestSeq: -1, deliveredSeq: -1, original: text, note: 'request dropped before the server saw it: the client got 202 Accepted and no answer' });
      return answerDropped(res, cors, watch);
    }
    sendOn(held);
  });
}

/** The request was dropped before the server saw it: the client gets 202 Accepted and never an answer. */
function answerDropped(res: ServerResponse, cors: Record<string, string> | undefined, watch: RequestWatch): void {
  if (res.headersSent || res.destroyed) return;
  watch.answeredByTap('tap');
  res.writeHead(202, { ...cors }).end();
}

/** Records as usual, and keeps the seq of the client's request frame for the rule's outcome. */
function actingRecord(record: RecordFrame, acting: Acting): RecordFrame {
  return (frame, large) => {
    const seq = record(frame, large);
    if (frame.direction === 'c2s' && acting.requestSeq === -1) acting.requestSeq = seq;
    return seq;
  };
}

/** The answer to a request a rule acted on: through the rule when it acts on answers, else as usual (its outcome said once). */
function respondOnce(exchange: Exchange, acting: Acting, up: UpstreamResponse): void {
  if (actsOnAnswer(acting.decision.action)) {
    const { res, deps } = exchange;
    exchange.answering = true;
    const http: HttpInfo = { method: exchange.method, path: exchange.url, status: up.statusCode, responseHeaders: capturedHeaders(up.headers), connectionId: exchange.connectionId, rule: acting.decision.mark, ...doorLink(exchange.watch) };
    const context = { res, record: exchange.record, now: deps.now, http, headers: clientHeaders(exchange, up), sessionKey: exchange.request.sessionKey!, acceptsSse: (headerValue(exchange.req.headers, 'accept') ?? '').includes('text/event-stream'), gone: () => exchange.clientGone };
    return respondActing(context, acting, up, () => respond(exchange, up));
  }
  respond(exchange, up);
  const edited = acting.edited !== undefined;
  acting.decision.done({ sessionKey: exchange.request.sessionKey!, requestSeq: acting.requestSeq, deliveredSeq: edited ? acting.requestSeq : -1, ...(edited ? { original: acting.original } : {}), note: acting.note });
}

/** Writes the upstream's answer to the client as it arrives, and records it on the way. */
function respond(exchange: Exchange, up: UpstreamResponse): void {
  const { res, deps, method, pathname, base, recordHere, isLegacyPost } = exchange;
  const headers = clientHeaders(exchange, up);
  const contentType = headerValue(up.headers, 'content-type') ?? '';
  const isSse = contentType.startsWith('text/event-stream');
  if (method === 'GET' && up.statusCode === 200 && !isSse && isProtectedResourceMetadataPath(pathname)) {
    return sendRewrittenMetadata(up, res, headers, (text) => rewriteProtectedResourceMetadata(text, deps.upstreamOrigin, base));
  }
  const frames: ResponseFrames = {
    record: exchange.record,
    now: deps.now,
    sessionKey: exchange.request.sessionKey!,
    transport: isSse ? 'sse' : isLegacyPost ? 'legacy-sse' : 'http-json',
    http: { method, path: exchange.url, status: up.statusCode, responseHeaders: recordHere ? capturedHeaders(up.headers) : {}, connectionId: exchange.connectionId, ...doorLink(exchange.watch) },
    ...(deps.largeBody ? { largeBody: () => deps.largeBody!() } : {}),
  };
  if (up.statusText) res.writeHead(up.statusCode, up.statusText, headers);
  else res.writeHead(up.statusCode, headers);
  // A client waits for SSE headers before the first event, so they must not wait for a slow
  // first event; but when the first event is already here (usually), it rides with them.
  // (`headersSent` is already true after writeHead, before a byte has left: track writes.)
  let wroteBody = false;
  if (isSse) setImmediate(() => wroteBody || res.destroyed || res.flushHeaders());
  const recorder = responseRecorder(recordHere, isSse, isLegacyPost, up, frames, deps.maxBodyBytes, () => requestsIn(exchange.heldText));
  // A GET on the MCP path may be legacy HTTP+SSE: its `endpoint` event must point back here.
  const rewriter =
    recordHere && isSse && method === 'GET'
      ? new EndpointRewriter(
          (data) => rewriteEndpoint(data, deps.upstreamOrigin, base),
          (original) => {
            const target = new URL(original, deps.upstreamOrigin + pathname);
            deps.legacy.add(target.pathname);
            frames.sessionKey = legacySessionKey(target.search, target.pathname);
            frames.transport = 'legacy-sse';
          },
        )
      : undefined;
  exchange.answering = true;
  // Runs after send's `close` listener (which aborts the upstream request).
  res.on('close', () => {
    if (res.writableFinished) return;
    // A resumable stream (session + event ids) is not abandoned: the client resumes with
    // Last-Event-ID and the answer still pairs. Anything else is the cancellation.
    if (exchange.knownKey !== undefined && recorder.resumable) return;
    if (recordHere) recordClientLeft(frames.record, deps.now, frames.sessionKey, frames.transport, frames.http);
  });
  const body = up.body;
  body.on('data', (chunk: Buffer) => {
    const out = rewriter ? rewriter.push(chunk) : chunk;
    if (out !== undefined) {
      wroteBody = true;
      if (!res.write(out)) body.pause();
    }
    recorder.push(chunk);
  });
  res.on('drain', () => body.resume());
  body.on('end', () => {
    const rest = rewriter?.flush();
    if (rest) res.write(rest);
    recorder.end();
    res.end();
  });
  body.on('error', (err: unknown) => {
    if (exchange.clientGone) return;
    recorder.broke();
    const what = isSse ? 'the SSE stream' : 'the response body';
    const reason = `${what} broke: ${describeError(err)}`;
    exchange.watch.upstreamCut(reason);
    if (recordHere) recordStreamError(frames.record, deps.now, frames.sessionKey, frames.transport, reason, frames.http);
    // An SSE stream can end cleanly (the client may resume); a cut body cannot be made whole.
    if (isSse) res.end();
    else res.destroy();
  });
}

/** The upstream's headers as the client gets them: hop-by-hop ones dropped, origins rewritten, CORS added. */
function clientHeaders(exchange: Exchange, up: UpstreamResponse): Record<string, string | string[]> {
  const headers = downstreamResponseHeaders(up.headers);
  rewriteOriginHeaders(headers, exchange.deps.upstreamOrigin, exchange.base);
  if (exchange.cors) {
    exchange.watch.corsAdded(headerValue(up.headers, 'access-control-allow-origin'));
    Object.assign(headers, exchange.cors);
  }
  return headers;
}

function responseRecorder(recordHere: boolean, isSse: boolean, isLegacyPost: boolean, up: UpstreamResponse, frames: ResponseFrames, maxBodyBytes: number | undefined, requests: () => number | undefined): ResponseRecorder {
  if (!recordHere) return NOT_RECORDED;
  const status = up.statusCode;
  const location = REDIRECTS.has(status) ? headerValue(up.headers, 'location') : undefined;
  if (location !== undefined) return new RedirectRecorder(frames, redirectMessage(status, redactUrlSecrets(location)));
  if (isSse) return new SseRecorder(frames, frames.http.method === 'POST' ? requests() : undefined);
  // A legacy POST's body is `Accepted`, not a message: only failures are worth recording.
  if (isLegacyPost && status < 400) return NOT_RECORDED;
  return new BodyRecorder(frames, maxBodyBytes);
}

/** The statuses that send a client elsewhere with a `Location` (304 is a cache answer, not one). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What a redirected MCP request's transport row says: where the server sent it, and the fix. */
function redirectMessage(status: number, location: string): string {
  return `the server answered ${status} and sent the request to ${location} instead of answering it: a client that follows redirects sends it again there, through the tap; one that does not fails here. Point --target at ${location}, and your client at the same path on the tap, to skip the round trip.`;
}
