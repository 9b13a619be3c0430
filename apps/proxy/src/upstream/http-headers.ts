/**
 * Which headers a reverse proxy passes on. RFC 9110 §7.6.1: hop-by-hop headers describe one
 * connection and must not be forwarded, and neither may any header the `Connection` header names
 * (`Connection: close, X-Hop` makes `X-Hop` this connection's alone); everything else (Mcp-*,
 * Authorization, Origin, traceparent, cookies, Last-Event-ID) passes unchanged. Works on Node's header records, so no
 * Headers objects are built per request.
 */
import type { IncomingHttpHeaders } from 'node:http';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  // undici refuses `expect`; Node's server has already answered any 100-continue.
  'expect',
]);

/** The names a `Connection` header lists (lower case): hop-by-hop for this message only. Node's records are lower-cased. */
function namedByConnection(headers: Record<string, string | string[] | undefined>): ReadonlySet<string> | undefined {
  return connectionNames(headers.connection);
}

/**
 * The same for a stored header record (a capture, an imported file), whose names may be spelled
 * in any case: what replay and "Copy as curl" must not send again.
 */
export function namedByRecordedConnection(headers: Record<string, string>): ReadonlySet<string> | undefined {
  for (const name in headers) if (name.toLowerCase() === 'connection') return connectionNames(headers[name]);
  return undefined;
}

function connectionNames(value: string | string[] | undefined): ReadonlySet<string> | undefined {
  if (value === undefined) return undefined;
  const names = (Array.isArray(value) ? value.join(',') : value).split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
  return names.length > 0 ? new Set(names) : undefined;
}

export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, proto: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const named = namedByConnection(incoming);
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || HOP_BY_HOP.has(name) || named?.has(name)) continue;
    // undici sets Host to the upstream and computes the length of the body it sends.
    if (name === 'host' || name === 'content-length') continue;
    // Bodies are recorded as text: ask for them uncompressed, as hono/proxy does.
    if (name === 'accept-encoding') continue;
    out[name] = value;
  }
  // Behind a tunnel the tunnel has already said who the client asked for; keep its word.
  if (out['x-forwarded-host'] === undefined && incoming.host) out['x-forwarded-host'] = incoming.host;
  if (out['x-forwarded-proto'] === undefined) out['x-forwarded-proto'] = proto;
  return out;
}

/** The upstream's response headers minus hop-by-hop ones. Bytes pass undecoded, so length and encoding stay true. */
export function downstreamResponseHeaders(upstream: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const named = namedByConnection(upstream);
  for (const name in upstream) {
    const value = upstream[name];
    if (value === undefined || HOP_BY_HOP.has(name) || named?.has(name)) continue;
    out[name] = value;
  }
  return out;
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
