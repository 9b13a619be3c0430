/**
 * The dashboard listener: web UI, REST API and WebSocket, all behind the access checks
 * (Host and Origin on everything, the token on the API and the WebSocket). API routes live in
 * ../api/routes/<resource>.ts; their failures become JSON answers in ../api/error-handler.ts.
 */
import { Hono } from 'hono';
import { upgradeWebSocket } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import type { DashboardInfo, FrameInput, HealthResponse } from '@mcpscope/protocol';
import type { CaptureStore } from '../capture/capture-store.js';
import { CaptureQuery } from '../capture/capture-query.js';
import type { LiveHub } from '../hub/live-hub.js';
import { apiErrorHandler, apiNotFound } from '../api/error-handler.js';
import { exchangeRoutes } from '../api/routes/exchanges.js';
import { frameRoutes } from '../api/routes/frames.js';
import { sessionRoutes } from '../api/routes/sessions.js';
import { hostAndOriginGuard, requireToken, type AccessOptions } from './access.js';
import { createExportRoutes } from '../export/export-routes.js';
import { FrameSource } from '../export/frame-source.js';

export interface DashboardDeps extends AccessOptions {
  store: CaptureStore;
  hub: LiveHub;
  /** Absolute path of the built web app (apps/web/dist). */
  webRoot: string;
  /** Stores imported frames (POST /api/import) through the capture pipeline. */
  importFrames?: (frames: FrameInput[]) => void;
  /** Where clients connect, for the dashboard's first-run page (`GET /api/info`). */
  info?: DashboardInfo;
  /** Demo mode only: sends one sample tools/call through the tap (`POST /api/demo/sample-call`). */
  sampleCall?: () => Promise<void>;
  /** The replay routes (apps/proxy/src/replay), served behind the token like the rest of /api. */
  replayApi?: Hono;
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

  const apiDeps = { store: deps.store, query: new CaptureQuery(deps.store) };
  const api = new Hono();
  api.use('*', requireToken(deps));
  api.route('/', sessionRoutes(apiDeps));
  api.route('/', frameRoutes(apiDeps));
  api.route('/', exchangeRoutes(apiDeps));
  api.get('/info', (c) => (deps.info ? c.json(deps.info) : c.json({ error: { code: 'not_found', message: 'No info.' } }, 404)));
  api.post('/demo/sample-call', async (c) => {
    if (!deps.sampleCall) return c.json({ error: { code: 'demo_off', message: 'Sample calls need the embedded demo server (start without --target).' } }, 409);
    try {
      await deps.sampleCall();
    } catch (err) {
      return c.json({ error: { code: 'sample_call_failed', message: (err as Error).message } }, 502);
    }
    return c.json({ ok: true });
  });
  if (deps.replayApi) api.route('/', deps.replayApi);
  api.route('/', createExportRoutes({ source: new FrameSource(deps.store.db), ...(deps.importFrames ? { importFrames: deps.importFrames } : {}) }));
  api.all('*', apiNotFound);
  api.onError(apiErrorHandler);
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
