/**
 * How the tap talks to the upstream: undici's `request` (Node streams, no WHATWG fetch layer, no
 * body decoding) on a keep-alive pool. undici's defaults (300 s headers and body timeouts) would
 * kill a long `tools/call` or an idle SSE stream; an inspector must never end a call on its own,
 * so both are 0. Redirects are never followed: a `Location` goes back to the client.
 */
import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';

export interface UpstreamResponse {
  statusCode: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface UpstreamRequestInit {
  method: string;
  headers: Record<string, string | string[]>;
  /** A stream for a body too large to hold (the tap forwards it as it arrives). */
  body: Buffer | Readable | undefined;
  /**
   * Aborts the request (and its response body) when it fires. undici takes an AbortSignal or an
   * EventEmitter that emits `abort`; the tap passes the latter, made per call: an AbortController
   * per call cost the tap's thread about 3 % of its time at 50 clients (createAbortSignal and its
   * EventTarget), an EventEmitter almost nothing.
   */
  signal: AbortSignal | EventEmitter;
}

export type UpstreamRequest = (url: string, init: UpstreamRequestInit) => Promise<UpstreamResponse>;

// No cap on connections: every SDK session holds one open for its GET stream, and a capped pool
// would let 256 idle streams block every other client of the tap.
// Idle sockets are dropped after 4 s, before a Node server drops them (its default keepAliveTimeout
// is 5 s). The MCP SDK's Streamable HTTP transport sets `Connection: keep-alive` itself, so Node
// sends no `Keep-Alive: timeout=5` hint; with a longer idle time here, a request sent 5–10 s after
// the last one went out on a socket the server had just closed, and failed with ECONNRESET.
const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 4_000, connections: null, pipelining: 1 });

export const upstreamRequest: UpstreamRequest = async (url, init) => {
  const res = await request(url, {
    method: init.method as 'GET',
    headers: init.headers,
    body: init.body ?? null,
    signal: init.signal,
    dispatcher: agent,
  });
  return { statusCode: res.statusCode, statusText: res.statusText, headers: res.headers, body: res.body };
};
