/**
 * The dashboard listener's Hono app: web UI, REST API and WebSocket, all behind the access checks
 * (Host and Origin on everything, the token on the API and the WebSocket). It is handed the
 * services it serves and never constructs one: compose/ builds them. Routes live in
 * routes/<resource>.ts; their failures become JSON answers in error-handler.ts, the one place.
 */
import { Hono } from 'hono';
import { upgradeWebSocket } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import type { HealthResponse } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import type { CaptureQuery } from '../capture/capture-query.js';
import type { LiveHub } from '../hub/live-hub.js';
import { apiErrorHandler, apiNotFound } from './error-handler.js';
import { hostAndOriginGuard, requireToken, type AccessOptions } from './access.js';
import { exchangeRoutes } from './routes/exchanges.js';
import { exportRoutes, type ExportRouteDeps } from './routes/export.js';
import { frameRoutes } from './routes/frames.js';
import { infoRoutes, type InfoRouteDeps } from './routes/info.js';
import { replayRefusedRoutes, replayRoutes, type ReplayRouteDeps } from './routes/replay.js';
import { ReplayStore } from '../replay/replay-store.js';
import { driveRefusedRoutes, driveRoutes, type DriveRouteDeps } from './routes/drive.js';
import { auditRoutes } from './routes/audit.js';
import { requestRoutes } from './routes/requests.js';
import { sessionRoutes } from './routes/sessions.js';
import { otlpRoutes, type OtlpRouteDeps } from './routes/otlp.js';
import { captureRoutes, type CaptureRouteDeps } from './routes/capture.js';
import { conversationRoutes } from './routes/conversations.js';
import { widgetRoutes, type WidgetRouteDeps } from './routes/widget.js';
import { evidenceRoutes } from './routes/evidence.js';
import type { EvidenceDeps } from '../evidence/evidence-service.js';
import { tapHostRoutes, type TapHostsRouteDeps } from './routes/tap-hosts.js';
import { interceptRoutes, type InterceptRouteDeps } from './routes/intercept.js';

export interface DashboardServices {
  store: CaptureReader;
  query: CaptureQuery;
  hub: LiveHub;
  exports: ExportRouteDeps;
  /** Absent where nothing can be sent (`mcpscope open`). */
  replay?: ReplayRouteDeps;
  drive?: DriveRouteDeps;
  info?: InfoRouteDeps;
  /** The live OTLP export, when `--otlp` is on. */
  otlp?: OtlpRouteDeps;
  /** Whether capture is storing (paused by a full disk or a read-only file system). */
  capture?: CaptureRouteDeps;
  /** The capture as an MCP server for coding agents (Streamable HTTP), served at `/mcp`. */
  agentMcp?: (request: Request) => Promise<Response>;
  widget?: WidgetRouteDeps;
  /** Evidence packs; without it, packs over `store` with no control replay. */
  evidence?: EvidenceDeps;
  /** Host names the tap accepts for this run; absent where there is no tap (`mcpscope open`). */
  tapHosts?: TapHostsRouteDeps;
  /** Intercept rules: live with a tap, read-only for a reopened capture. */
  intercept?: InterceptRouteDeps;
}

export interface DashboardDeps extends AccessOptions {
  services: DashboardServices;
  /** Absolute path of the built web app. */
  webRoot: string;
  /** Origins the dashboard may frame: the widget sandbox listener's (its own port, never ours). */
  frameSources?: readonly string[];
}

/** Scripts, styles and workers only from our own origin; nothing inline, nothing from a CDN; frames only from the widget sandbox. */
function dashboardCsp(frameSources: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'", // Monaco sets element styles at run time.
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    `frame-src ${frameSources.length > 0 ? frameSources.join(' ') : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function createDashboardApp(deps: DashboardDeps): Hono {
  const { services } = deps;
  const csp = dashboardCsp(deps.frameSources ?? []);
  const app = new Hono();
  app.use('*', hostAndOriginGuard(deps));
  app.use('*', async function securityHeaders(c, next) {
    await next();
    c.header('content-security-policy', csp);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  });

  app.get('/api/health', (c) => c.json<HealthResponse>({ ok: true }));

  const reads = { store: services.store, query: services.query };
  const api = new Hono();
  api.use('*', requireToken(deps));
  api.route('/', sessionRoutes(reads));
  api.route('/', conversationRoutes(reads));
  api.route('/', frameRoutes(reads));
  api.route('/', exchangeRoutes(reads));
  api.route('/', requestRoutes(reads));
  api.route('/', auditRoutes(reads));
  api.route('/', infoRoutes(services.info ?? {}));
  api.route('/', services.replay ? replayRoutes(services.replay) : replayRefusedRoutes(new ReplayStore(services.store)));
  api.route('/', services.drive ? driveRoutes(services.drive) : driveRefusedRoutes());
  if (services.widget) api.route('/', widgetRoutes(services.widget));
  if (services.tapHosts) api.route('/', tapHostRoutes(services.tapHosts));
  if (services.intercept) api.route('/', interceptRoutes(services.intercept));
  api.route('/', exportRoutes(services.exports));
  api.route('/', evidenceRoutes(services.evidence ?? { source: services.store }));
  api.route('/', otlpRoutes(services.otlp));
  api.route('/', captureRoutes(services.capture));
  api.all('*', apiNotFound);
  api.onError(apiErrorHandler);
  app.route('/api', api);

  app.get(
    '/ws',
    requireToken(deps),
    upgradeWebSocket((c) => {
      const cursor = (name: string) => {
        const text = c.req.query(name);
        const n = text === undefined ? NaN : Number(text);
        return Number.isInteger(n) ? n : undefined;
      };
      const after = cursor('after');
      const requestsRev = cursor('requestsRev');
      let detach: (() => void) | undefined;
      return {
        onOpen: (_event, ws) => {
          detach = services.hub.attach(ws, after, requestsRev);
        },
        onClose: () => detach?.(),
        onError: () => detach?.(),
      };
    }),
  );

  // Behind the token like the API (an agent sends it as `Authorization: Bearer T`); never on the tap.
  if (services.agentMcp) {
    const agentMcp = services.agentMcp;
    app.all('/mcp', requireToken(deps), (c) => agentMcp(c.req.raw));
  }

  app.use('/*', serveStatic({ root: deps.webRoot }));
  // Client-side routes fall back to the app shell.
  app.get('*', serveStatic({ root: deps.webRoot, path: 'index.html' }));
  return app;
}
