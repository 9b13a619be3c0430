/**
 * Forwards one HTTP request to the upstream and records the JSON-RPC frames it carries in both
 * directions. Node streams end to end (no WHATWG fetch or web streams on the hot path): request
 * bytes are forwarded as received, response bytes are written to the client first and parsed
 * second, and backpressure carries from the client's socket to the upstream (pause on a full
 * socket, resume on drain). The client going away aborts the upstream request; the tap itself
 * never ends a request or a stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SseParser, type FrameInput, type HttpInfo, type SseEvent, type Transport, transportFrameText } from '@mcpscope/protocol';
import { capturedHeaders } from '../../upstream/captured-headers.js';
import { answerUpstreamFailure, describeError } from '../../upstream/failure.js';
import { downstreamResponseHeaders, headerValue, upstreamRequestHeaders } from '../../upstream/http-headers.js';
import { EndpointRewriter, legacySessionKey, rewriteEndpoint, type LegacyEndpoints } from './legacy-sse.js';
import { isProtectedResourceMetadataPath, rewriteProtectedResourceMetadata, rewriteUrl, rewriteWwwAuthenticate } from './public-origin.js';
import { statelessSessionKey } from './session-key.js';
import type { UpstreamRequest, UpstreamResponse } from '../../upstream/upstream-request.js';
import { UNWATCHED, type RequestWatch } from '../../core/request-watch.js';

export interface ForwardDeps {
  /** The upstream's origin; the tap mirrors its paths. */
  upstreamOrigin: string;
  /** The upstream MCP endpoint's path (also the legacy SSE endpoint's). */
  mcpPath: string;
  /** Message endpoints learnt from legacy `endpoint` events. */
  legacy: LegacyEndpoints;
  record(frame: FrameInput): number;
  request: UpstreamRequest;
  now(): number;
  nextConnectionId(): string;
  /** `--public-url`'s base; without it the Host the client used names the tap. */
  publicBase?: string;
  /** The salted fingerprint of an `Authorization` value, taken before redaction (conversations join on it). */
  credentialOf?(authorization: string | undefined): string | undefined;
  /** Sees each MCP request's headers with its session key (replay keeps the credentials in memory). */
  onRequestHeaders?(sessionKey: string, headers: IncomingMessage['headers']): void;
}

export function forward(req: IncomingMessage, res: ServerResponse, deps: ForwardDeps, cors: Record<string, string> | undefined, watch: RequestWatch = UNWATCHED): void {
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined);
  if (!hasBody) return send(req, res, deps, cors, watch, undefined);
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
  });
  req.on('end', () => send(req, res, deps, cors, watch, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
  // A client that leaves mid-body has nothing to forward; its socket is already gone.
  req.on('error', () => {});
}

function send(req: IncomingMessage, res: ServerResponse, deps: ForwardDeps, cors: Record<string, string> | undefined, watch: RequestWatch, body: Buffer | undefined): void {
  const method = req.method ?? 'GET';
  // Every frame of this request is also linked to it at the door.
  const record = (frame: FrameInput): number => {
    const seq = deps.record(frame);
    // -1: not recorded (capture's queue was full; counted there), so there is nothing to link.
    if (seq >= 0) watch.frame(seq, frame.sessionKey);
    return seq;
  };
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
  const isLegacyPost = deps.legacy.has(pathname);
  const recordHere = pathname === deps.mcpPath || isLegacyPost;
  const startTs = deps.now();
  const connectionId = deps.nextConnectionId();
  const requestText = recordHere && body !== undefined && body.length > 0 ? body.toString('utf8') : undefined;
  const http: HttpInfo = { method, path: url, connectionId };
  // Frames name the HTTP request they rode on, as the door recorded it.
  const link: { requestId?: number } = watch.id !== undefined ? { requestId: watch.id } : {};
  Object.assign(http, link);
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
  let sessionKey = knownKey;
  let requestRecorded = false;
  const recordRequest = (key: string) => {
    sessionKey = key;
    if (!recordHere || requestText === undefined || requestRecorded) return;
    deps.onRequestHeaders?.(key, req.headers);
    requestRecorded = true;
    record({ ts: startTs, sessionKey: key, direction: 'c2s', transport: isLegacyPost ? 'legacy-sse' : 'http-json', kind: 'data', raw: requestText, http });
  };
  if (knownKey !== undefined) recordRequest(knownKey);
  const fallbackKey = () => statelessSessionKey(headerValue(req.headers, 'user-agent'), requestText);

  const ac = new AbortController();
  let clientGone = false;
  /** Set once the response streams: records the departure unless the stream can be resumed. */
  let onClientGone = () => {
    recordRequest(sessionKey ?? fallbackKey());
    recordClientLeft(record, deps.now, recordHere && requestRecorded, sessionKey!, 'http-json', http);
  };
  res.on('close', () => {
    if (res.writableFinished) return;
    clientGone = true;
    ac.abort();
    onClientGone();
  });

  deps
    .request(deps.upstreamOrigin + url, { method, headers: upstreamRequestHeaders(req.headers, proto), body, signal: ac.signal })
    .then(
      (up) => {
        if (clientGone) return void up.body.destroy();
        recordRequest(sessionKey ?? headerValue(up.headers, 'mcp-session-id') ?? fallbackKey());
        respond(up);
      },
      (err: unknown) => {
        if (clientGone) return;
        const key = sessionKey ?? fallbackKey();
        recordRequest(key);
        const reason = describeError(err);
        if (recordHere) {
          record({ ts: deps.now(), sessionKey: key, direction: 's2c', transport: 'http-json', kind: 'transport', raw: transportFrameText('upstream-error', reason), http: { method, path: url, status: 502, connectionId, ...link } });
        }
        watch.upstreamFailed(reason);
        answerUpstreamFailure(res, requestText, reason, cors);
      },
    );

  function respond(up: UpstreamResponse): void {
    const key = sessionKey!;
    const headers = downstreamResponseHeaders(up.headers);
    rewriteOriginHeaders(headers, deps.upstreamOrigin, base);
    if (cors) Object.assign(headers, cors);
    const contentType = headerValue(up.headers, 'content-type') ?? '';
    const isSse = contentType.startsWith('text/event-stream');
    if (method === 'GET' && up.statusCode === 200 && !isSse && isProtectedResourceMetadataPath(pathname)) {
      return sendRewrittenMetadata(up, res, headers, (text) => rewriteProtectedResourceMetadata(text, deps.upstreamOrigin, base));
    }
    const responseHttp: HttpInfo = { method, path: url, status: up.statusCode, responseHeaders: recordHere ? capturedHeaders(up.headers) : {}, connectionId, ...link };
    if (up.statusText) res.writeHead(up.statusCode, up.statusText, headers);
    else res.writeHead(up.statusCode, headers);
    // A client waits for SSE headers before the first event, so they must not wait for a slow
    // first event; but when the first event is already here (usually), it rides with them.
    // (`headersSent` is already true after writeHead, before a byte has left: track writes.)
    let wroteBody = false;
    if (isSse) setImmediate(() => wroteBody || res.destroyed || res.flushHeaders());
    const streamEvents = recordHere && isSse;
    let transport: Transport = isSse ? 'sse' : isLegacyPost ? 'legacy-sse' : 'http-json';
    let streamKey = key;
    let sawEventId = false;
    const parser = streamEvents ? new SseParser() : undefined;
    // A GET on the MCP path may be legacy HTTP+SSE: its `endpoint` event must point back here.
    const rewriter =
      streamEvents && method === 'GET'
        ? new EndpointRewriter(
            (data) => rewriteEndpoint(data, deps.upstreamOrigin, base),
            (original) => {
              const target = new URL(original, deps.upstreamOrigin + pathname);
              deps.legacy.add(target.pathname);
              streamKey = legacySessionKey(target.search, target.pathname);
              transport = 'legacy-sse';
            },
          )
        : undefined;
    // A legacy POST's body is `Accepted`, not a message: only failures are worth recording.
    const collectBody = recordHere && !isSse && (!isLegacyPost || up.statusCode >= 400);
    const decoder = collectBody ? new TextDecoder() : undefined;
    const parts: string[] = [];
    const onEvent = (event: SseEvent) => {
      if (event.id !== undefined) sawEventId = true;
      // Priming events carry no message; the legacy `endpoint` event is transport plumbing.
      if (!event.hasData || event.data === '' || event.event === 'endpoint') return;
      const frameHttp: HttpInfo = { ...responseHttp };
      if (event.id !== undefined) frameHttp.sseId = event.id;
      if (event.event !== undefined) frameHttp.sseEvent = event.event;
      record({ ts: deps.now(), sessionKey: streamKey, direction: 's2c', transport, kind: 'data', raw: event.data, http: frameHttp });
    };
    onClientGone = () => {
      // A resumable stream (session + event ids) is not abandoned: the client resumes with
      // Last-Event-ID and the answer still pairs. Anything else is the cancellation.
      if (knownKey !== undefined && sawEventId) return;
      recordClientLeft(record, deps.now, recordHere, streamKey, transport, responseHttp);
    };
    const body = up.body;
    body.on('data', (chunk: Buffer) => {
      const out = rewriter ? rewriter.push(chunk) : chunk;
      if (out !== undefined) {
        wroteBody = true;
        if (!res.write(out)) body.pause();
      }
      if (parser) {
        for (const item of parser.push(chunk)) if (item.type === 'event') onEvent(item);
      } else if (decoder) {
        parts.push(decoder.decode(chunk, { stream: true }));
      }
    });
    res.on('drain', () => body.resume());
    body.on('end', () => {
      const rest = rewriter?.flush();
      if (rest) res.write(rest);
      if (parser) for (const item of parser.end()) if (item.type === 'event') onEvent(item);
      if (decoder) {
        parts.push(decoder.decode());
        const text = parts.join('');
        if (text.length > 0) record({ ts: deps.now(), sessionKey: streamKey, direction: 's2c', transport, kind: 'data', raw: text, http: responseHttp });
      }
      res.end();
    });
    body.on('error', (err: unknown) => {
      if (clientGone) return;
      if (decoder) {
        // The client got these bytes before the break: they are evidence too, as a (malformed) frame.
        parts.push(decoder.decode());
        const partial = parts.join('');
        if (partial.length > 0) record({ ts: deps.now(), sessionKey: streamKey, direction: 's2c', transport, kind: 'data', raw: partial, http: responseHttp });
      }
      const what = isSse ? 'the SSE stream' : 'the response body';
      watch.upstreamCut(`${what} broke: ${describeError(err)}`);
      if (recordHere) {
        record({ ts: deps.now(), sessionKey: streamKey, direction: 's2c', transport, kind: 'transport', raw: transportFrameText('stream-error', `${what} broke: ${describeError(err)}`), http: responseHttp });
      }
      // An SSE stream can end cleanly (the client may resume); a cut body cannot be made whole.
      if (isSse) res.end();
      else res.destroy();
    });
  }
}

function recordClientLeft(record: (frame: FrameInput) => number, now: () => number, recordHere: boolean, sessionKey: string, transport: Transport, http: HttpInfo): void {
  if (!recordHere) return;
  record({ ts: now(), sessionKey, direction: 'c2s', transport, kind: 'transport', raw: transportFrameText('client-disconnected', 'the client closed the connection; the upstream request was aborted'), http: { method: http.method, path: http.path, connectionId: http.connectionId!, ...(http.requestId !== undefined ? { requestId: http.requestId } : {}) } });
}

function rewriteOriginHeaders(headers: Record<string, string | string[]>, upstreamOrigin: string, base: string): void {
  const location = headers.location;
  if (typeof location === 'string') headers.location = rewriteUrl(location, upstreamOrigin, base);
  const auth = headers['www-authenticate'];
  if (auth !== undefined) {
    headers['www-authenticate'] = Array.isArray(auth) ? auth.map((v) => rewriteWwwAuthenticate(v, upstreamOrigin, base)) : rewriteWwwAuthenticate(auth, upstreamOrigin, base);
  }
}

function sendRewrittenMetadata(up: UpstreamResponse, res: ServerResponse, headers: Record<string, string | string[]>, rewrite: (text: string) => string | undefined): void {
  const chunks: Buffer[] = [];
  up.body.on('data', (c: Buffer) => chunks.push(c));
  up.body.on('error', () => res.destroy());
  up.body.on('end', () => {
    const original = Buffer.concat(chunks);
    const rewritten = rewrite(original.toString('utf8'));
    const out = rewritten === undefined ? original : Buffer.from(rewritten, 'utf8');
    delete headers['transfer-encoding'];
    headers['content-length'] = String(out.length);
    res.writeHead(up.statusCode, headers);
    res.end(out);
  });
}
