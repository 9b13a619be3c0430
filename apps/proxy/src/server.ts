/**
 * Starts mcpscope: the capture store, the tap listener and the dashboard listener (and the demo
 * server when there is no target). Used by the CLI, the tests, the e2e suite and the benchmarks.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { FrameInput } from '@mcpscope/protocol';
import { serve, type ServerType } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { CaptureStore } from './capture/capture-store.js';
import { CapturePipeline } from './capture/capture-pipeline.js';
import { LiveHub } from './hub/live-hub.js';
import { createTapApp } from './tap/tap-app.js';
import { upstreamFetch, type UpstreamFetch } from './tap/upstream-fetch.js';
import { createDashboardApp } from './dashboard/dashboard-app.js';
import { loopbackHosts, newToken } from './dashboard/access.js';
import { startDemoServer, type DemoServer } from './demo/demo-http.js';
import type { CliOptions } from './config/cli-args.js';
import { defaultDbPath } from './config/data-dir.js';

export interface Mcpscope {
  tapUrl: string;
  /** The MCP endpoint on the tap (what a client connects to). */
  mcpUrl: string;
  dashboardUrl: string;
  /** The dashboard URL with the token, as printed in the banner. */
  dashboardLoginUrl: string;
  token: string;
  upstreamUrl: string;
  dbFile: string;
  demo?: DemoServer;
  store: CaptureStore;
  pipeline: CapturePipeline;
  close(): Promise<void>;
}

export type StartOptions = Partial<CliOptions> & { fetch?: UpstreamFetch; webRoot?: string };

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export async function startMcpscope(options: StartOptions = {}): Promise<Mcpscope> {
  if (options.stdio) throw new Error('--stdio is not available yet in this build');
  const demo = options.target ? undefined : await startDemoServer();
  const upstreamUrl = options.target ?? demo!.url;
  const upstream = new URL(upstreamUrl);
  const dbFile = options.db ?? defaultDbPath();
  if (dbFile !== ':memory:') mkdirSync(dirname(dbFile), { recursive: true });
  const store = new CaptureStore(dbFile);
  const pipeline = new CapturePipeline(store);
  const hub = new LiveHub(store, pipeline);
  let connections = 0;

  const tapApp = createTapApp({
    upstreamOrigin: upstream.origin,
    isMcpPath: (path) => path === upstream.pathname,
    record: (frame) => pipeline.record(frame),
    fetch: options.fetch ?? upstreamFetch,
    now: () => performance.timeOrigin + performance.now(),
    nextConnectionId: () => `h${++connections}`,
  });
  const tapServer = await listen(serve({ fetch: tapApp.fetch, port: options.port ?? 0, hostname: options.host ?? '127.0.0.1' }));

  const token = options.token ?? newToken();
  const uiHost = options.uiHost ?? '127.0.0.1';
  // The allowed Host set needs the real port, known only after listen: fill it in afterwards.
  const allowedHosts = new Set<string>();
  const importFrames = (frames: FrameInput[]) => {
    for (const frame of frames) pipeline.record(frame);
    pipeline.flush();
  };
  const dashboardApp = createDashboardApp({ store, hub, token, allowedHosts, webRoot: options.webRoot ?? DEFAULT_WEB_ROOT, importFrames });
  const wss = new WebSocketServer({ noServer: true });
  const uiServer = await listen(serve({ fetch: dashboardApp.fetch, port: options.uiPort ?? 0, hostname: uiHost, websocket: { server: wss } }));
  const uiPort = (uiServer.address() as AddressInfo).port;
  for (const h of loopbackHosts(uiPort)) allowedHosts.add(h);
  if (uiHost !== '127.0.0.1' && uiHost !== 'localhost') allowedHosts.add(`${uiHost}:${uiPort}`.toLowerCase());

  const tapPort = (tapServer.address() as AddressInfo).port;
  const tapUrl = `http://127.0.0.1:${tapPort}`;
  const dashboardUrl = `http://127.0.0.1:${uiPort}`;
  return {
    tapUrl,
    mcpUrl: tapUrl + upstream.pathname,
    dashboardUrl,
    dashboardLoginUrl: `${dashboardUrl}/?token=${encodeURIComponent(token)}`,
    token,
    upstreamUrl,
    dbFile,
    ...(demo ? { demo } : {}),
    store,
    pipeline,
    close: async () => {
      hub.close();
      await Promise.all([closeServer(tapServer), closeServer(uiServer)]);
      wss.close();
      await demo?.close();
      pipeline.close();
      store.close();
    },
  };
}

export function listen(server: ServerType): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

export function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    (server as import('node:http').Server).closeAllConnections?.();
    server.close(() => resolve());
  });
}
