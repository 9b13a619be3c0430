/**
 * An upstream client that follows the server's method-preserving redirects (307, 308) on the same
 * origin, as the MCP SDK's client does (fetch follows them). `verify`, replays and the agent's
 * verify speak to the server as the captured client did: a server mounted the way Starlette mounts
 * FastMCP answers `/mcp` with a 307 to `/mcp/`, and a verify that stopped there could run nothing.
 * The tap itself never follows (upstream-request.ts): its client gets the Location, and the
 * capture shows it.
 *
 * Only 307 and 308: they keep the method and the body, while a 301, 302 or 303 answering a POST
 * tells a client to GET, which no MCP call means. Only the same origin: credentials given with
 * `--header` go nowhere else. A streamed body cannot be sent twice, so its redirect comes back as
 * it is.
 */
import { headerValue } from './http-headers.js';
import type { UpstreamRequest } from './upstream-request.js';

/** Hops followed before the last redirect is returned as the answer (fetch allows 20; a loop needs no more than this to show). */
export const MAX_REDIRECTS = 5;

export interface Redirect {
  from: string;
  to: string;
  status: number;
}

export function followingRedirects(request: UpstreamRequest, onRedirect?: (redirect: Redirect) => void): UpstreamRequest {
  return async (url, init) => {
    let current = url;
    for (let hop = 0; ; hop++) {
      const res = await request(current, init);
      if ((res.statusCode !== 307 && res.statusCode !== 308) || hop === MAX_REDIRECTS || !(init.body === undefined || Buffer.isBuffer(init.body))) return res;
      const location = headerValue(res.headers, 'location');
      const next = location === undefined ? undefined : resolve(location, current);
      if (!next || next.origin !== new URL(current).origin) return res;
      // The redirect's own body (usually empty) is read to its end, so its connection goes back to the pool.
      res.body.resume();
      onRedirect?.({ from: current, to: next.href, status: res.statusCode });
      current = next.href;
    }
  };
}

function resolve(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}
