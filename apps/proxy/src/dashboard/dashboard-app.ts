/**
 * The dashboard listener: web UI, REST API and WebSocket, all behind the access checks.
 */
import { Hono } from 'hono';
import { upgradeWebSocket } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import type { ExchangesPage, FrameInput, FramesPage, HealthResponse, SessionsPage } from '@mcpscope/protocol';
import type { CaptureStore } from '../capture/capture-store.js';
import type { LiveHub } from '../hub/live-hub.js';
import { hostAndOriginGuard, requireToken, type AccessOptions } from './access.js';
import { sortKey } from '../capture/capture-store.js';
import { createExportRoutes } from '../export/export-routes.js';
import { FrameSource } from '../export/frame-source.js';

export interface DashboardDeps extends AccessOptions {
  store: CaptureStore;
  hub: LiveHub;
  /** Absolute path of the built web app (apps/web/dist). */
  webRoot: string;
  /** Stores imported frames (POST /api/import) through the capture pipeline. */
  importFrames(frames: FrameInput[]): void;
}

/** Scripts, styles and workers only from our own origin; nothing inline, nothing from a CDN. */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // Monaco sets element styles at run time.
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const intParam = (value: string | undefined, fallback: number, max: number) => {
  const n = value === undefined ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, max) : fallback;
};

export function createDashboardApp(deps: DashboardDeps): Hono {
  const app = new Hono();
  app.use('*', hostAndOriginGuard(deps));
  app.use('*', async (c, next) => {
    await next();
    c.header('content-security-policy', CSP);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  });

  app.get('/api/health', (c) => c.json<HealthResponse>({ ok: true }));

  const api = new Hono();
  api.use('*', requireToken(deps));
  api.get('/sessions', (c) => c.json<SessionsPage>({ sessions: deps.store.sessions() }));
  api.get('/frames', (c) => {
    const after = intParam(c.req.query('after'), 0, Number.MAX_SAFE_INTEGER);
    const limit = intParam(c.req.query('limit'), 500, 5000);
    return c.json<FramesPage>({ head: deps.store.head(), frames: deps.store.framesAfter(after, limit) });
  });
  api.get('/exchanges', (c) => {
    const limit = intParam(c.req.query('limit'), 1000, 200_000);
    const beforeParam = c.req.query('before');
    const before = beforeParam === undefined ? undefined : Number(beforeParam);
    const head = deps.store.head();
    const exchanges = deps.store.exchanges(limit, Number.isFinite(before) ? before : undefined);
    const page: ExchangesPage = { head, exchanges };
    const last = exchanges[exchanges.length - 1];
    if (exchanges.length === limit && last) page.nextBefore = sortKey(last.id);
    return c.json(page);
  });
  api.get('/exchanges/:id', (c) => {
    const exchange = deps.store.exchange(c.req.param('id'));
    if (!exchange) return c.json({ error: { code: 'not_found', message: 'No such exchange.' } }, 404);
    return c.json({ exchange, frames: deps.store.framesBySeq(exchange.frameSeqs) });
  });
  api.route('/', createExportRoutes({ source: new FrameSource(deps.store.db), importFrames: deps.importFrames }));
  app.route('/api', api);

  app.get(
    '/ws',
    requireToken(deps),
    upgradeWebSocket((c) => {
      const afterParam = c.req.query('after');
      const after = afterParam === undefined ? undefined : Number(afterParam);
      let detach: (() => void) | undefined;
      return {
        onOpen: (_event, ws) => {
          detach = deps.hub.attach(ws, Number.isInteger(after) ? after : undefined);
        },
        onClose: () => detach?.(),
        onError: () => detach?.(),
      };
    }),
  );

  app.use('/*', serveStatic({ root: deps.webRoot }));
  // Client-side routes fall back to the app shell.
  app.get('*', serveStatic({ root: deps.webRoot, path: 'index.html' }));
  return app;
}
