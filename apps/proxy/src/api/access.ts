/**
 * Who may reach the dashboard: only the person who launched mcpscope. Three checks, in order:
 * - Host allow-list (stops DNS rebinding: a hostile page that resolves its name to 127.0.0.1);
 * - Origin check (stops cross-site requests and WebSocket hijacking from other pages);
 * - the per-launch token, compared in constant time.
 * Inspectors without these have shipped remote code execution (CVE-2025-49596, CVE-2026-23744).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

/** 32 random bytes, base64url: 256 bits. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Hashing first makes the comparison constant-time even when lengths differ. */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export interface AccessOptions {
  token: string;
  /** Hosts (with port) the dashboard answers to, e.g. `127.0.0.1:7801`, `localhost:7801`. */
  allowedHosts: ReadonlySet<string>;
}

const deny = (status: 401 | 403, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json' } });

/** Host and Origin checks for every dashboard request, the page itself included. */
export function hostAndOriginGuard(opts: AccessOptions): MiddlewareHandler {
  return async function hostAndOriginGuard(c, next) {
    const host = c.req.header('host')?.toLowerCase();
    if (!host || !opts.allowedHosts.has(host)) {
      return deny(403, 'forbidden_host', `Host "${host ?? ''}" is not allowed; open the dashboard at the URL mcpscope printed.`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== 'null') {
      let originHost: string;
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        return deny(403, 'forbidden_origin', 'Malformed Origin.');
      }
      if (!opts.allowedHosts.has(originHost)) return deny(403, 'forbidden_origin', `Origin "${origin}" may not use the dashboard.`);
    } else if (origin === 'null') {
      return deny(403, 'forbidden_origin', 'Opaque origins may not use the dashboard.');
    }
    await next();
  };
}

/**
 * The WebSocket subprotocol that carries the token, so it need not sit in the socket's URL (URLs
 * end up in logs and proxies). A browser offers `new WebSocket(url, [WS_PROTOCOL,
 * WS_TOKEN_PREFIX + token])`; the server selects WS_PROTOCOL, the first one offered.
 */
export const WS_PROTOCOL = 'mcpscope';
export const WS_TOKEN_PREFIX = 'mcpscope.token.';

/** The token a request presents, from the first place it is found. */
export function presentedToken(header: (name: string) => string | undefined, query: (name: string) => string | undefined): string | undefined {
  const auth = header('authorization');
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  const protocols = header('sec-websocket-protocol');
  if (protocols) {
    for (const p of protocols.split(',')) {
      const trimmed = p.trim();
      if (trimmed.startsWith(WS_TOKEN_PREFIX)) return trimmed.slice(WS_TOKEN_PREFIX.length);
    }
  }
  return query('token');
}

/**
 * Token check for the API and the WebSocket: `Authorization: Bearer T`, the WebSocket
 * subprotocol `mcpscope.token.T`, or `?token=T`.
 */
export function requireToken(opts: Pick<AccessOptions, 'token'>): MiddlewareHandler {
  return async function requireToken(c, next) {
    const given = presentedToken((n) => c.req.header(n), (n) => c.req.query(n));
    if (!given || !tokensEqual(given, opts.token)) {
      return deny(401, 'unauthorized', 'Missing or wrong token: open the dashboard from the URL mcpscope printed.');
    }
    await next();
  };
}

/** Hosts a loopback listener on `port` is reachable by. */
export function loopbackHosts(port: number, extra: string[] = []): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, ...extra.map((h) => h.toLowerCase())]);
}
