/**
 * Answers that name the upstream's origin are rewritten to name the tap, so a client that follows
 * them comes back through it: `Location`, `WWW-Authenticate`'s `resource_metadata`, and the
 * protected-resource metadata document (RFC 9728), which is read whole to be rewritten.
 */
import type { ServerResponse } from 'node:http';
import type { UpstreamResponse } from '../../upstream/upstream-request.js';
import { rewriteUrl, rewriteWwwAuthenticate } from './public-origin.js';

export function rewriteOriginHeaders(headers: Record<string, string | string[]>, upstreamOrigin: string, base: string): void {
  const location = headers.location;
  if (typeof location === 'string') headers.location = rewriteUrl(location, upstreamOrigin, base);
  const auth = headers['www-authenticate'];
  if (auth !== undefined) {
    headers['www-authenticate'] = Array.isArray(auth) ? auth.map((v) => rewriteWwwAuthenticate(v, upstreamOrigin, base)) : rewriteWwwAuthenticate(auth, upstreamOrigin, base);
  }
}

export function sendRewrittenMetadata(up: UpstreamResponse, res: ServerResponse, headers: Record<string, string | string[]>, rewrite: (text: string) => string | undefined): void {
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
