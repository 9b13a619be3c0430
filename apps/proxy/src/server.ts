/**
 * Starts mcpscope: the capture store, the tap listener and the dashboard listener (and the demo
 * server when there is no target). Used by the CLI, the tests, the e2e suite and the benchmarks.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { CaptureStore } from './capture/capture-store.js';
import { CapturePipeline } from './capture/capture-pipeline.js';
import { LiveHub, type LiveHubOptions } from './hub/live-hub.js';
import { createTapHandler } from './tap/tap-handler.js';
import { upstreamRequest, type UpstreamRequest } from './tap/upstream-request.js';
import { createGuard, isLoopbackAddress } from './tap/tap-guard.js';
import { LegacyEndpoints } from './tap/legacy-sse.js';
import { publicBaseOf } from './tap/public-origin.js';
import { startStdioUpstream, type StdioUpstream } from './stdio/stdio-upstream.js';
import { createDashboardApp } from './dashboard/dashboard-app.js';
import { loopbackHosts, newToken } from './dashboard/access.js';
import { startDemoServer, type DemoServer } from './demo/demo-http.js';
import type { FrameInput } from '@mcpscope/protocol';
import { isWildcardAddress, type CliOptions } from './config/cli-args.js';
import { defaultDbPath } from './config/data-dir.js';
import { sampleCall } from './demo/sample-call.js';
import { resolveWebRoot } from './assets/web-root.js';
import { createReplay } from './replay/index.js';

export interface Mcpscope {
  tapUrl: string;
  /** The MCP endpoint on the tap (what a client connects to). */
  mcpUrl: string;
  dashboardUrl: string;
  /** The dashboard URL with the token, as printed in the banner. */
  dashboardLoginUrl: string;
  token: string;
  upstreamUrl: string;
  /** The MCP endpoint as clients outside reach it (`--public-url`), when given. */
  publicMcpUrl?: string;
  /** The spawned server in `--stdio` mode. */
  stdio?: StdioUpstream;
  dbFile: string;
  demo?: DemoServer;
  store: CaptureStore;
  pipeline: CapturePipeline;
  hub: LiveHub;
  close(): Promise<void>;
}

export type StartOptions = Partial<CliOptions> & {
  request?: UpstreamRequest;
  webRoot?: string;
  hub?: LiveHubOptions;
  /**
   * `false`: the tap forwards and observes as usual but records nothing (no derive, no store, no
   * broadcast). Not a CLI option: the benchmarks use it to show what capture itself costs.
   */
  capture?: boolean;
};

export const DEFAULT_WEB_ROOT = resolveWebRoot();

export async function startMcpscope(options: StartOptions = {}): Promise<Mcpscope> {
  if (options.uiHost && isWildcardAddress(options.uiHost) && !options.dangerouslyExposeDashboard) {
    // parseCli refuses this too; this guards callers that build options themselves.
    throw new Error(`refusing to bind the dashboard to the wildcard address ${options.uiHost} without dangerouslyExposeDashboard`);
  }
  const dbFile = options.db ?? defaultDbPath();
  if (dbFile !== ':memory:') mkdirSync(dirname(dbFile), { recursive: true });
  // The store first: a capture file held by another mcpscope stops the start before anything listens.
  const store = new CaptureStore(dbFile);
  const demo = options.target || options.stdio ? undefined : await startDemoServer();
  const pipeline = new CapturePipeline(store, { ...(options.maxFrames ? { maxFrames: options.maxFrames } : {}), ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}) });
  const hub = new LiveHub(store, pipeline, options.hub);
  let connections = 0;
  const record = options.capture === false ? () => -1 : (frame: FrameInput) => pipeline.record(frame);
  const now = () => performance.timeOrigin + performance.now();

  // With --stdio the tap serves the spawned server at /mcp; otherwise it mirrors the upstream's paths.
  const upstreamUrl = options.stdio ? `stdio: ${options.stdio}` : (options.target ?? demo!.url);
  const mcpPath = options.stdio ? '/mcp' : new URL(upstreamUrl).pathname;
  const publicBase = options.publicUrl ? publicBaseOf(options.publicUrl, mcpPath) : undefined;
  let stdio: StdioUpstream | undefined;
  try {
    stdio = options.stdio ? await startStdioUpstream(options.stdio, { record, now, mcpPath }) : undefined;
  } catch (err) {
    hub.close();
    pipeline.close();
    store.close();
    throw err;
  }
  const host = options.host ?? '127.0.0.1';
  const guard = createGuard({
    loopbackOnly: isLoopbackAddress(host),
    allowHosts: [...(options.allowHosts ?? []), ...(options.publicUrl ? [new URL(options.publicUrl).host] : [])],
  });
  // For --stdio, a fresh replay starts its own copy of the server (the bridge owns the live pipe).
  const replay = createReplay({ store, pipeline, ...(stdio ? { stdioArgv: stdio.argv } : { upstreamUrl }), request: options.request ?? upstreamRequest, now });
  const tapHandler = createTapHandler({
    guard,
    ...(stdio
      ? { stdio: { mcpPath, handle: (req, res, cors) => stdio!.bridge.handle(req, res, cors) } }
      : {
          forward: {
            upstreamOrigin: new URL(upstreamUrl).origin,
            mcpPath,
            legacy: new LegacyEndpoints(),
            record,
            request: options.request ?? upstreamRequest,
            now,
            nextConnectionId: () => `h${++connections}`,
            ...(publicBase ? { publicBase } : {}),
            ...(replay ? { onRequestHeaders: (sessionKey: string, headers: import('node:http').IncomingHttpHeaders) => replay.credentials.remember(sessionKey, headers) } : {}),
          },
        }),
  });
  const tapHttp = createServer(tapHandler);
  // Tunnels pool their connections to the tap; closing idle ones sooner than a tunnel does races
  // its next request into a 502, so the tap outlasts them (cloudflared keeps them 90 s).
  tapHttp.keepAliveTimeout = 120_000;
  const tapServer = await listen(tapHttp.listen(options.port ?? 0, host));

  const tapPort = (tapServer.address() as AddressInfo).port;
  const tapUrl = `http://127.0.0.1:${tapPort}`;
  const mcpUrl = tapUrl + mcpPath;
  const token = options.token ?? newToken();
  const uiHost = options.uiHost ?? '127.0.0.1';
  // The allowed Host set needs the real port, known only after listen: fill it in afterwards.
  const allowedHosts = new Set<string>();
  const importFrames = (frames: FrameInput[]) => {
    for (const frame of frames) pipeline.record(frame);
    pipeline.flush();
  };
  const dashboardApp = createDashboardApp({
    importFrames,
    store,
    hub,
    token,
    allowedHosts,
    webRoot: options.webRoot ?? DEFAULT_WEB_ROOT,
    info: { tapUrl, mcpUrl, upstreamUrl, demo: demo !== undefined },
    ...(demo ? { sampleCall: () => sampleCall(mcpUrl) } : {}),
    replayApi: replay.routes(tapUrl),
  });
  const wss = new WebSocketServer({ noServer: true });
  const uiServer = await listen(serve({ fetch: dashboardApp.fetch, port: options.uiPort ?? 0, hostname: uiHost, websocket: { server: wss } }));
  const uiPort = (uiServer.address() as AddressInfo).port;
  for (const h of loopbackHosts(uiPort)) allowedHosts.add(h);
  if (uiHost !== '127.0.0.1' && uiHost !== 'localhost') allowedHosts.add(`${uiHost}:${uiPort}`.toLowerCase());

  const dashboardUrl = `http://127.0.0.1:${uiPort}`;
  return {
    tapUrl,
    mcpUrl,
    ...(publicBase ? { publicMcpUrl: publicBase + mcpPath } : {}),
    ...(stdio ? { stdio } : {}),
    dashboardUrl,
    dashboardLoginUrl: `${dashboardUrl}/?token=${encodeURIComponent(token)}`,
    token,
    upstreamUrl,
    dbFile,
    ...(demo ? { demo } : {}),
    store,
    pipeline,
    hub,
    close: async () => {
      hub.close();
      await replay.close();
      // A dashboard that stopped reading would hold the listener open: cut it.
      for (const socket of wss.clients) socket.terminate();
      await Promise.all([closeServer(tapServer), closeServer(uiServer)]);
      wss.close();
      await demo?.close();
      await stdio?.close();
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
