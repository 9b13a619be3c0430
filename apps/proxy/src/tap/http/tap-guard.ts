/**
 * The tap's own DNS-rebinding guard and CORS. The tap sets `Host` to the upstream, so the
 * upstream can no longer tell a rebinding page from a real client: when the tap listens on
 * loopback it must refuse foreign names itself. Accepted: loopback names on any port, the
 * `--public-url` host (a tunnel delivers that Host) and every `--allow-host`.
 *
 * Origin is checked only on requests that arrive by a loopback name: that is the browser-on-this-
 * machine attack. A request by the public host came through the tunnel on purpose, and a
 * browser client on any site may legitimately use a public MCP server through CORS.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface GuardOptions {
  /** Whether the tap is bound to a loopback address (the guard is off otherwise). */
  loopbackOnly: boolean;
  /** Extra hosts accepted: the public URL's host and `--allow-host` values (with or without port). */
  allowHosts: string[];
}

export type GuardVerdict = { ok: true; loopbackHost: boolean } | { ok: false; reason: string };

export function isLoopbackAddress(addr: string): boolean {
  const a = addr.toLowerCase();
  return LOOPBACK_NAMES.has(a) || a.startsWith('127.');
}

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

export function createGuard(options: GuardOptions): (host: string | undefined, origin: string | undefined) => GuardVerdict {
  const allowed = new Set(options.allowHosts.map((h) => h.toLowerCase()));
  const accepts = (host: string) => allowed.has(host) || allowed.has(hostnameOf(host));
  return (rawHost, rawOrigin) => {
    const host = (rawHost ?? '').toLowerCase();
    const loopbackHost = LOOPBACK_NAMES.has(hostnameOf(host));
    if (!options.loopbackOnly) return { ok: true, loopbackHost };
    if (!loopbackHost && !accepts(host)) {
      return { ok: false, reason: `Host "${rawHost ?? ''}" is not this tap. If a tunnel forwards it, start mcpscope with --public-url https://${rawHost ?? 'your-tunnel'} or --allow-host ${hostnameOf(host) || 'HOST'}.` };
    }
    if (loopbackHost && rawOrigin !== undefined && rawOrigin !== 'null') {
      let originHost: string;
      try {
        originHost = new URL(rawOrigin).host.toLowerCase();
      } catch {
        return { ok: false, reason: `Origin "${rawOrigin}" is not a URL.` };
      }
      if (!LOOPBACK_NAMES.has(hostnameOf(originHost)) && !accepts(originHost)) {
        return { ok: false, reason: `Origin "${rawOrigin}" may not use this tap (DNS-rebinding guard). Add --allow-host ${hostnameOf(originHost)} if you trust it.` };
      }
    }
    return { ok: true, loopbackHost };
  };
}

const ALLOW_HEADERS = 'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name';
const EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate, last-event-id';

/** Answers a CORS preflight itself: upstreams often have no CORS, and the tap is what the browser talks to. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin ?? '*';
  // Echo what the browser asks for: `Mcp-Param-*` names are open-ended.
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': requested ? `${ALLOW_HEADERS}, ${requested}` : ALLOW_HEADERS,
    'access-control-expose-headers': EXPOSE_HEADERS,
    'access-control-max-age': '86400',
    vary: 'Origin',
  });
  res.end();
}

export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

/** CORS headers on an actual response to a browser client. */
export function corsHeaders(origin: string | undefined): Record<string, string> | undefined {
  if (origin === undefined) return undefined;
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS, vary: 'Origin' };
}

export function refuse(res: ServerResponse, reason: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `mcpscope: ${reason}` } });
  res.writeHead(403, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
