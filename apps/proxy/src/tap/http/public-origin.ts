/**
 * Keeps OAuth working behind the tap (protocol-reference §5.4): the places where an upstream
 * names its own origin are rewritten to the origin the client reaches the tap by, so discovery
 * comes back through the tap. That origin is `--public-url` (the tunnel) when given, else the
 * Host the client used. Everything else in these values is kept byte for byte.
 */

export interface PublicBase {
  /** e.g. `https://abc.trycloudflare.com` or `https://example.com/prefix` (no trailing slash). */
  base: string;
}

/**
 * The base clients reach the tap by. A `--public-url` may name the tunnel's root or, pasted from
 * the connector form, the MCP endpoint itself: a trailing MCP path is not a prefix.
 */
export function publicBaseOf(publicUrl: string, mcpPath: string): string {
  const url = new URL(publicUrl);
  let path = url.pathname.replace(/\/+$/, '');
  const mcp = mcpPath.replace(/\/+$/, '');
  if (mcp && path.endsWith(mcp)) path = path.slice(0, path.length - mcp.length);
  return url.origin + path;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** Rewrites an absolute URL on the upstream origin to the public base; anything else is returned as is. */
export function rewriteUrl(value: string, upstreamOrigin: string, base: string): string {
  const m = ABSOLUTE.exec(value);
  if (!m) return value;
  let origin: string;
  try {
    origin = new URL(m[0]).origin;
  } catch {
    return value;
  }
  return origin === upstreamOrigin ? base + value.slice(m[0].length) : value;
}

/** `WWW-Authenticate: Bearer resource_metadata="…"`: only that parameter changes; scope and error stay. */
export function rewriteWwwAuthenticate(value: string, upstreamOrigin: string, base: string): string {
  return value.replace(/(resource_metadata=")([^"]*)(")/gi, (_all, open: string, url: string, close: string) => open + rewriteUrl(url, upstreamOrigin, base) + close);
}

export function isProtectedResourceMetadataPath(path: string): boolean {
  return path === '/.well-known/oauth-protected-resource' || path.startsWith('/.well-known/oauth-protected-resource/');
}

/**
 * RFC 9728 §3.3: a client refuses metadata whose `resource` is not the URL it derived it from,
 * so `resource` must name the tap. Returns undefined when the body is not such metadata.
 */
export function rewriteProtectedResourceMetadata(body: string, upstreamOrigin: string, base: string): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  if (typeof record.resource !== 'string') return undefined;
  const resource = rewriteUrl(record.resource, upstreamOrigin, base);
  if (resource === record.resource) return undefined;
  return JSON.stringify({ ...record, resource });
}
