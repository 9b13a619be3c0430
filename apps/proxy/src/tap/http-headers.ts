/**
 * Which headers a reverse proxy passes on. RFC 9110 §7.6.1: hop-by-hop headers describe one
 * connection and must not be forwarded; everything else (Mcp-*, Authorization, Origin,
 * traceparent, cookies) passes unchanged.
 */

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
]);

export function upstreamRequestHeaders(incoming: Headers, clientUrl: URL): Headers {
  const out = new Headers();
  incoming.forEach((value, name) => {
    // The connection header may name further hop-by-hop headers.
    if (HOP_BY_HOP.has(name) || name === 'host' || name === 'content-length') return;
    // Bodies are recorded as text: ask for them uncompressed, as hono/proxy does.
    if (name === 'accept-encoding') return;
    out.set(name, value);
  });
  out.set('x-forwarded-host', incoming.get('host') ?? clientUrl.host);
  out.set('x-forwarded-proto', clientUrl.protocol.replace(':', ''));
  return out;
}

export function downstreamResponseHeaders(upstream: Headers): Headers {
  const out = new Headers();
  upstream.forEach((value, name) => {
    if (HOP_BY_HOP.has(name)) return;
    out.append(name, value);
  });
  // fetch has already decoded the body, so its original encoding and length no longer apply.
  if (out.has('content-encoding')) {
    out.delete('content-encoding');
    out.delete('content-length');
  }
  return out;
}
