/**
 * The tap listener's request handler: the MCP endpoint clients use. It guards (Host/Origin),
 * answers CORS preflights, then forwards to the upstream over HTTP or hands the MCP path to the
 * stdio bridge. It never serves the dashboard, the API or the token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forward, type ForwardDeps } from './http/forward.js';
import { answerPreflight, corsHeaders, isPreflight, refuse, type GuardVerdict } from './http/tap-guard.js';
import { UNWATCHED, type RefusedRequest, type WatchRequest } from '../core/request-watch.js';

export interface TapRoutes {
  guard(host: string | undefined, origin: string | undefined): GuardVerdict;
  /** HTTP upstream; absent in stdio mode. */
  forward?: ForwardDeps;
  /** stdio mode: the bridge serves `mcpPath`; other paths are 404. */
  stdio?: { mcpPath: string; handle(req: IncomingMessage, res: ServerResponse, cors: Record<string, string> | undefined): void };
  /** Sees every request the guard lets in at the door (preflights included). */
  watch?: WatchRequest;
  /** Told of each request the guard refused (it counts them; it records none whole). */
  refused?: RefusedRequest;
}

export type TapHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createTapHandler(routes: TapRoutes): TapHandler {
  return (req, res) => {
    const verdict = routes.guard(req.headers.host, req.headers.origin);
    if (!verdict.ok) {
      routes.refused?.(req, verdict.refusedHost ? { reason: verdict.reason, refusedHost: verdict.refusedHost } : { reason: verdict.reason });
      return refuse(res, verdict.reason);
    }
    const watch = routes.watch ? routes.watch(req, res) : UNWATCHED;
    if (isPreflight(req)) {
      watch.answeredByTap('preflight');
      return answerPreflight(req, res);
    }
    const cors = corsHeaders(req.headers.origin);
    if (routes.stdio) {
      const path = (req.url ?? '/').split('?')[0];
      if (path === routes.stdio.mcpPath) return routes.stdio.handle(req, res, cors);
      watch.answeredByTap('tap');
      res.writeHead(404, { ...cors, 'content-type': 'text/plain' }).end('Not found: this tap serves a stdio server at ' + routes.stdio.mcpPath);
      return;
    }
    forward(req, res, routes.forward!, cors, watch);
  };
}
