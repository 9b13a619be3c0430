/**
 * The tap's own DNS-rebinding guard and CORS. The tap sets `Host` to the upstream, so the
 * upstream can no longer tell a rebinding page from a real client: the tap refuses foreign
 * names itself. It accepts as Host: loopback names on any port, the `--public-url` host (a tunnel
 * delivers that Host) and every `--allow-host`. Bound to another address (`--host 0.0.0.0` in a
 * container, on a LAN), it also accepts IP addresses (a client on the network that dials the
 * machine's address): a rebinding page always comes by a name of its own, never by an address,
 * so any other name is refused until `--allow-host` names it.
 *
 * Origin is checked on every request that arrives by a loopback name or an address, whatever the
 * bind address: that is the browser attack (CVE-2025-49596's class: any web page driving a local
 * or LAN server by plain CORS-less POSTs). A browser page may use the tap only from
 * - the tap's own origin (the Host's address on the port the request came to, or a loopback name
 *   on that port for a loopback Host: pages the upstream serves through the tap),
 * - an `--allow-origin` origin, or an `--allow-host` host.
 * `Origin: null` is always refused there: any page can make one (a sandboxed iframe, a data: URL),
 * so it identifies no one. Other local web apps on other ports are refused too: a page on
 * loopback may still show content from elsewhere (a notebook, a dev server, another inspector's
 * preview), and `--allow-origin http://localhost:6274` trusts one when the user means it.
 * A request by the public host or an `--allow-host` name came that way on purpose, and a browser
 * client on any site may legitimately use a public MCP server through CORS, so Origin is not
 * checked there.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { canonicalHost, isLoopbackHost } from '../../core/addresses.js';

export { isLoopbackAddress } from '../../core/addresses.js';

export interface GuardOptions {
  /** Whether the tap is bound to a loopback address (otherwise IP-address Hosts are accepted too). */
  loopbackOnly: boolean;
  /** Extra hosts accepted: the public URL's host and `--allow-host` values (with or without port). */
  allowHosts: string[];
  /** Origins browser pages may use the tap from (`--allow-origin`), e.g. `http://localhost:6274`. */
  allowOrigins?: string[];
  /** Hosts the user accepted for this run from the dashboard (accepted-hosts.ts), read on every request. */
  acceptedHosts?: { has(host: string): boolean };
}

/** A Host the guard refused: the name as the client sent it and the flag that would let it in. */
export interface RefusedHost {
  /** The `Host` header, lower-cased (what the dashboard can accept for the run). */
  host: string;
  /** The flag that lets it in: `--public-url https://HOST` on a loopback tap (a tunnel delivers that Host), else `--allow-host NAME`. */
  fix: string;
}

export type GuardVerdict = { ok: true; loopbackHost: boolean } | { ok: false; reason: string; refusedHost?: RefusedHost };

/** Host and port of a `Host` header or a URL's host, as the URL parser reads them. */
export function parseHost(host: string): { name: string; port: string } | undefined {
  try {
    const url = new URL(`http://${host}`);
    if (url.pathname !== '/' || url.username !== '' || url.search !== '') return undefined;
    return { name: url.hostname.toLowerCase(), port: url.port || '80' };
  } catch {
    return undefined;
  }
}

/** A host name as the URL parser spells it that is an IP address (IPv6 in brackets). */
function isIpAddress(name: string): boolean {
  return isIP(name.startsWith('[') ? name.slice(1, -1) : name) !== 0;
}

/** An `--allow-origin` value as the browser's `Origin` header spells it, or an error. */
export function normaliseOrigin(value: string): { ok: true; origin: string } | { ok: false; message: string } {
  if (value.trim() === 'null') return { ok: false, message: '"null" cannot be allowed: any web page can send Origin: null (a sandboxed iframe, a data: URL)' };
  try {
    const url = new URL(value);
    if (url.origin === 'null') return { ok: false, message: `"${value}" has no origin a browser would send` };
    return { ok: true, origin: url.origin };
  } catch {
    return { ok: false, message: `"${value}" is not an origin such as http://localhost:6274` };
  }
}

export function createGuard(options: GuardOptions): (host: string | undefined, origin: string | undefined) => GuardVerdict {
  const allowed = new Set(options.allowHosts.map((h) => h.toLowerCase()));
  const allowedOrigins = new Set((options.allowOrigins ?? []).flatMap((o) => {
    const n = normaliseOrigin(o);
    return n.ok ? [n.origin] : [];
  }));
  const accepts = (host: string, name: string) => allowed.has(host) || allowed.has(name) || allowed.has(canonicalHost(name) ?? name) || options.acceptedHosts?.has(host) === true;
  return (rawHost, rawOrigin) => {
    const host = (rawHost ?? '').toLowerCase();
    const parsed = parseHost(host);
    const loopbackHost = parsed !== undefined && isLoopbackHost(parsed.name);
    const addressHost = !options.loopbackOnly && parsed !== undefined && isIpAddress(parsed.name);
    const allowedHost = parsed !== undefined && accepts(host, parsed.name);
    if (!loopbackHost && !addressHost && !allowedHost) {
      const name = parsed?.name ?? 'HOST';
      const how = options.loopbackOnly
        ? `If a tunnel forwards it, start mcpscope with --public-url https://${rawHost || 'your-tunnel'} or --allow-host ${name}.`
        : `The tap accepts IP addresses and loopback names; a name must be allowed, because a DNS-rebinding web page would use one: start mcpscope with --allow-host ${name} if your clients use it.`;
      const reason = `Host "${rawHost ?? ''}" is not this tap. ${how}`;
      if (parsed === undefined) return { ok: false, reason };
      return { ok: false, reason, refusedHost: { host, fix: options.loopbackOnly ? `--public-url https://${host}` : `--allow-host ${name}` } };
    }
    if ((allowedHost && !loopbackHost) || rawOrigin === undefined) return { ok: true, loopbackHost };
    if (rawOrigin.trim() === 'null') {
      return { ok: false, reason: 'Origin "null" may not use this tap: any web page can send it (from a sandboxed iframe), so it could drive your MCP server. Run browser clients on an origin of their own and start mcpscope with --allow-origin ORIGIN.' };
    }
    let origin: URL;
    try {
      origin = new URL(rawOrigin);
    } catch {
      return { ok: false, reason: `Origin "${rawOrigin}" is not a URL.` };
    }
    const originHost = parseHost(origin.host);
    const sameHost = originHost !== undefined && (loopbackHost ? isLoopbackHost(originHost.name) : originHost.name === parsed!.name);
    const ownOrigin = sameHost && originHost.port === parsed!.port && origin.protocol === 'http:';
    if (ownOrigin || allowedOrigins.has(origin.origin) || (originHost && accepts(origin.host.toLowerCase(), originHost.name))) return { ok: true, loopbackHost };
    return { ok: false, reason: `Origin "${rawOrigin}" may not use this tap: a web page could otherwise drive your MCP server through it. If you trust that page, start mcpscope with --allow-origin ${origin.origin}.` };
  };
}

const ALLOW_HEADERS = 'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name';
const EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate, last-event-id';

/**
 * Answers a CORS preflight itself: upstreams often have no CORS, and the tap is what the browser
 * talks to. Only guarded requests get here; an opaque origin is still never allowed by name.
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const origin = allowedOrigin(req.headers.origin);
  // Echo what the browser asks for: `Mcp-Param-*` names are open-ended.
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    ...(origin ? { 'access-control-allow-origin': origin } : {}),
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

/** The origin to name in `access-control-allow-origin`: never `null`, which any page can claim. */
function allowedOrigin(origin: string | undefined): string | undefined {
  return origin === undefined || origin.trim() === 'null' ? undefined : origin;
}

/** CORS headers on an actual response to a browser client. */
export function corsHeaders(requestOrigin: string | undefined): Record<string, string> | undefined {
  const origin = allowedOrigin(requestOrigin);
  if (origin === undefined) return undefined;
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS, vary: 'Origin' };
}

export function refuse(res: ServerResponse, reason: string): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `mcpscope: ${reason}` } });
  res.writeHead(403, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), vary: 'Origin' });
  res.end(body);
}
