/**
 * Forwards one HTTP request to the upstream MCP server and records the JSON-RPC frames it
 * carries in both directions. Bodies are forwarded as the original bytes; SSE streams are
 * forwarded event by event as they arrive.
 */
import { classifyText, type FrameInput, type HttpInfo, type Transport } from '@mcpscope/protocol';
import { redactedHeaders } from '../security/redact.js';
import { downstreamResponseHeaders, upstreamRequestHeaders } from './http-headers.js';
import { bodyTap, sseTap } from './capture-stream.js';
import type { UpstreamFetch } from './upstream-fetch.js';

export interface ForwardDeps {
  /** The upstream's origin; the tap mirrors its paths. */
  upstreamOrigin: string;
  /** Paths whose traffic is MCP and is recorded (the MCP endpoint, legacy message endpoints). */
  isMcpPath(path: string): boolean;
  record(frame: FrameInput): number;
  fetch: UpstreamFetch;
  now(): number;
  nextConnectionId(): string;
  /** Sees each request's headers with its session key (replay keeps the credentials in memory). */
  onRequestHeaders?(sessionKey: string, headers: Headers): void;
}

export async function forward(req: Request, deps: ForwardDeps): Promise<Response> {
  const clientUrl = new URL(req.url);
  const target = deps.upstreamOrigin + clientUrl.pathname + clientUrl.search;
  const path = clientUrl.pathname;
  const startTs = deps.now();
  const connectionId = deps.nextConnectionId();
  const requestBody = req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(await req.arrayBuffer());
  const requestText = requestBody && requestBody.length > 0 ? new TextDecoder().decode(requestBody) : undefined;
  const recordHere = deps.isMcpPath(path);
  const requestSessionId = req.headers.get('mcp-session-id') ?? undefined;
  const http: HttpInfo = { method: req.method, path: path + clientUrl.search, requestHeaders: redactedHeaders(req.headers), connectionId };

  let upstream: Response;
  try {
    upstream = await deps.fetch(target, {
      method: req.method,
      headers: upstreamRequestHeaders(req.headers, clientUrl),
      body: requestBody,
      signal: req.signal,
    });
  } catch (err) {
    const sessionKey = requestSessionId ?? fallbackSessionKey(req);
    if (recordHere && requestText !== undefined) {
      deps.record({ ts: startTs, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw: requestText, http });
    }
    const reason = describeFetchError(err);
    deps.record({ ts: deps.now(), sessionKey, direction: 's2c', transport: 'http-json', kind: 'transport', raw: JSON.stringify({ event: 'upstream-error', message: reason }), http: { ...http, status: 502 } });
    return upstreamFailure(requestText, reason);
  }

  const sessionKey = requestSessionId ?? upstream.headers.get('mcp-session-id') ?? fallbackSessionKey(req);
  deps.onRequestHeaders?.(sessionKey, req.headers);
  if (recordHere && requestText !== undefined) {
    deps.record({ ts: startTs, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw: requestText, http });
  }
  const responseHttp: HttpInfo = { ...http, status: upstream.status, responseHeaders: redactedHeaders(upstream.headers) };
  delete responseHttp.requestHeaders;
  const headers = downstreamResponseHeaders(upstream.headers);
  const contentType = upstream.headers.get('content-type') ?? '';
  if (!upstream.body) return new Response(null, { status: upstream.status, statusText: upstream.statusText, headers });

  const isSse = contentType.startsWith('text/event-stream');
  if (!recordHere && !isSse) return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers });

  const transport: Transport = isSse ? 'sse' : 'http-json';
  const brokenStream = (what: string, error: unknown) =>
    // A read that fails because our own client left is that departure, recorded by clientLeft.
    req.signal.aborted ||
    deps.record({ ts: deps.now(), sessionKey, direction: 's2c', transport, kind: 'transport', raw: JSON.stringify({ event: 'stream-error', message: `${what} broke: ${describeFetchError(error)}` }), http: responseHttp });
  const clientLeft = () =>
    deps.record({ ts: deps.now(), sessionKey, direction: 'c2s', transport, kind: 'transport', raw: JSON.stringify({ event: 'client-disconnected', message: 'the client closed the connection; the upstream request was aborted' }), http: responseHttp });
  const body = isSse
    ? sseTap(upstream.body, {
        onEvent: (event) => {
          if (!event.hasData || event.data === '') return; // priming events carry no message
          const frameHttp: HttpInfo = { ...responseHttp };
          if (event.id !== undefined) frameHttp.sseId = event.id;
          if (event.event !== undefined) frameHttp.sseEvent = event.event;
          deps.record({ ts: deps.now(), sessionKey, direction: 's2c', transport, kind: 'data', raw: event.data, http: frameHttp });
        },
        onError: (error) => brokenStream('the SSE stream', error),
        onCancel: clientLeft,
      })
    : bodyTap(upstream.body, {
        onBody: (text) => {
          if (text.length > 0) deps.record({ ts: deps.now(), sessionKey, direction: 's2c', transport, kind: 'data', raw: text, http: responseHttp });
        },
        onError: (error) => brokenStream('the response body', error),
        onCancel: clientLeft,
      });
  return new Response(body, { status: upstream.status, statusText: upstream.statusText, headers });
}

/** A well-formed answer for a client whose upstream is unreachable: 502 with a JSON-RPC error. */
function upstreamFailure(requestText: string | undefined, reason: string): Response {
  const message = requestText !== undefined ? classifyText(requestText) : undefined;
  const id = message && message.kind === 'request' ? message.id : null;
  const body = { jsonrpc: '2.0', id, error: { code: -32000, message: `mcpscope: upstream unreachable: ${reason}` } };
  return new Response(JSON.stringify(body), { status: 502, headers: { 'content-type': 'application/json' } });
}

function fallbackSessionKey(req: Request): string {
  // No Mcp-Session-Id (stateless servers, 2026-07-28): group by the client's identity.
  const ua = req.headers.get('user-agent') ?? 'unknown client';
  return `client:${ua}`;
}

/** Names the failure from the error's structured cause, never by matching message text. */
export function describeFetchError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if (err instanceof Error) return err.name === 'Error' ? err.message : `${err.name}: ${err.message}`;
  return String(err);
}
