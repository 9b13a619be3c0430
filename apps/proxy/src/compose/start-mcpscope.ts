/**
 * The composition root: builds mcpscope from its options — the capture store and pipeline, the
 * live hub, the upstream (an HTTP target, a spawned stdio server, or the embedded demo), the tap,
 * replay, and the dashboard listener over them — and is the one place the features meet. Used by
 * the `mcpscope` command, the tests, the e2e suite and the benchmarks.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { WatchedResponse } from '../door/response-watch.js';
import type { CaptureStore } from '../capture/capture-store.js';
import { openCaptureStore } from '../capture/open-store.js';
import { CapturePipeline } from '../capture/capture-pipeline.js';
import type { RecordPort } from '../capture/index.js';
import { CaptureQuery } from '../capture/capture-query.js';
import { defaultDbPath } from '../capture/data-dir.js';
import { isLoopbackAddress, isWildcardAddress, urlHostOf } from '../core/addresses.js';
import { LiveHub, type CaptureFeed, type LiveHubOptions } from '../hub/live-hub.js';
import { createTapHandler } from '../tap/tap-handler.js';
import { createGuard } from '../tap/http/tap-guard.js';
import { AcceptedHosts } from '../tap/http/accepted-hosts.js';
import { refusedHostNotices } from './refused-host-notice.js';
import { LegacyEndpoints } from '../tap/http/legacy-sse.js';
import { publicBaseOf } from '../tap/http/public-origin.js';
import { startStdioUpstream, type StdioUpstream } from '../tap/stdio/stdio-upstream.js';
import { upstreamRequest, type UpstreamRequest } from '../upstream/upstream-request.js';
import { followingRedirects } from '../upstream/follow-redirects.js';
import type { DemoServer } from '../demo/demo-http.js';
import { createReplay } from '../replay/index.js';
import { evidenceReplay } from './evidence-replay.js';
import type { LiveOtlp } from '../otlp/index.js';
import { credentialFingerprinter } from '../redaction/credential-fingerprint.js';
import { shownUrl } from '../redaction/redact-secrets.js';
import { DoorRecorder } from '../door/door-recorder.js';
import { startDashboardListener } from './dashboard-listener.js';
import { agentEndpoint } from './agent-endpoint.js';
import { WIDGET_LINK } from '../capture/replay-links.js';
import { WidgetCatalog } from '../widget-host/widget-catalog.js';
import { WidgetService } from '../widget-host/widget-service.js';
import { WidgetFiles } from '../widget-host/widget-files.js';
import { closeServer, listen } from './listen.js';
import { stableToken } from './stable-token.js';
import { fingerprintKey } from './fingerprint-key.js';
import { newToken } from '../api/access.js';
import type { McpscopeOptions } from './options.js';
import { interceptRouteDeps, startIntercept } from './intercept-wiring.js';
import type { Intercept } from '../intercept/intercept.js';

export interface Mcpscope {
  tapUrl: string;
  /** The MCP endpoint on the tap (what a client connects to). */
  mcpUrl: string;
  dashboardUrl: string;
  /** The widget sandbox listener's port (widget previews run on `http://<label>.localhost:PORT`). */
  widgetPort: number;
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
  /** Live OTLP export, when `otlp` was given. */
  otlp?: LiveOtlp;
  /** Intercept rules (HTTP upstreams; a stdio server has none yet). */
  intercept: Intercept;
  close(): Promise<void>;
}

export type StartOptions = McpscopeOptions & {
  request?: UpstreamRequest;
  webRoot?: string;
  hub?: LiveHubOptions;
  /**
   * `false`: the tap forwards and observes as usual but records nothing (no derive, no store, no
   * broadcast). Not a CLI option: the benchmarks use it to show what capture itself costs.
   */
  capture?: boolean;
  /**
   * `false`: capture frames but keep no door records (HTTP requests at the tap). Not a CLI option:
   * the benchmarks use it to show what the door costs the MCP path.
   */
  door?: boolean;
  /**
   * Bytes of one HTTP body capture keeps (MAX_CAPTURED_BODY_BYTES). Not a CLI option: tests use a
   * small one to show what happens past it without moving hundreds of megabytes.
   */
  maxBodyBytes?: number;
  /** Where one-line notices for the person at the terminal go (a newly refused Host); the command writes them to stderr. */
  notice?: (line: string) => void;
};

export async function startMcpscope(options: StartOptions = {}): Promise<Mcpscope> {
  if (options.uiHost && isWildcardAddress(options.uiHost) && !options.dangerouslyExposeDashboard) {
    // parseCli refuses this too; this guards callers that build options themselves.
    throw new Error(`refusing to bind the dashboard to the wildcard address ${options.uiHost} without dangerouslyExposeDashboard`);
  }
  // A widget file named on the command line that cannot be served stops the start, before anything opens.
  const widgetFiles = new WidgetFiles();
  try {
    for (const f of options.widgetFiles ?? []) widgetFiles.open(f.uri, f.path);
  } catch (err) {
    widgetFiles.close();
    throw new Error(`--widget-file: ${(err as Error).message}`, { cause: err });
  }
  const dbFile = options.db ?? defaultDbPath();
  // The store first: a capture file held by another mcpscope, or one that cannot be written,
  // stops the start before anything listens.
  const store = openCaptureStore(dbFile);
  // The secrets kept beside the file, before anything listens: a refused one stops the start.
  let token: string;
  let credentialKey: string;
  try {
    // A capture file keeps its token across restarts, so open dashboard tabs keep working.
    token = options.token ?? (dbFile === ':memory:' ? newToken() : stableToken(dbFile));
    credentialKey = fingerprintKey(dbFile);
  } catch (err) {
    store.close();
    throw err;
  }
  // The demo server (the MCP SDK) and OTLP export (the OpenTelemetry SDK) load only when used: a
  // start loads what its options need.
  const demo = options.target || options.stdio ? undefined : await (await import('../demo/demo-http.js')).startDemoServer();
  const pipeline = new CapturePipeline(store, { ...(options.maxFrames ? { maxFrames: options.maxFrames } : {}), ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}) });
  const captureFeed: CaptureFeed = {
    status: () => pipeline.health.status(),
    marks: () => store.marks.list(),
    onStatusChange: (listener) => void pipeline.health.onChange(listener),
    onMarksChange: (listener) => void pipeline.marks.onChange(listener),
  };
  const hub = new LiveHub(store, pipeline, { ...options.hub, capture: captureFeed });
  let connections = 0;
  const now = () => performance.timeOrigin + performance.now();
  const intercept = startIntercept(options.capture === false ? undefined : store.db, options.rules ?? [], now);
  // Intercept watches the client's next messages after a rule acted (its reaction card).
  const record: RecordPort = options.capture === false ? () => -1 : pipeline.recordPort(intercept.saw.bind(intercept));
  const request = options.request ?? upstreamRequest;

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
  // Spans from the pipeline's batches, read back through the store: the tap never waits on them.
  const otlp = options.otlp ? (await import('../otlp/index.js')).startLiveOtlp(options.otlp, { onBatch: (listener) => pipeline.onBatch(listener), source: store }) : undefined;
  const host = options.host ?? '127.0.0.1';
  // Hosts the user accepts for the run from the dashboard (never by themselves).
  const acceptedHosts = new AcceptedHosts();
  const guard = createGuard({
    loopbackOnly: isLoopbackAddress(host),
    allowHosts: [...(options.allowHosts ?? []), ...(options.publicUrl ? [new URL(options.publicUrl).host] : [])],
    allowOrigins: options.allowOrigins ?? [],
    acceptedHosts,
  });
  const noticeRefusal = options.notice ? refusedHostNotices(options.notice) : undefined;
  // For --stdio, a fresh replay starts its own copy of the server (the bridge owns the live pipe).
  // A replay follows the server's redirects as the MCP SDK's client does (follow-redirects.ts); the tap never does.
  const replay = createReplay({
    store,
    pipeline,
    ...(stdio ? { stdioArgv: stdio.argv } : { upstreamUrl }),
    request: followingRedirects(request),
    now,
    ...(options.serverAnswers ? { serverAnswers: options.serverAnswers } : {}),
  });
  // Every request at the door is recorded too (any path, refused ones included), unless capture is off.
  const door = options.capture === false || options.door === false ? undefined : new DoorRecorder({ sink: pipeline, now, mcpPath });
  const tapHandler = createTapHandler({
    guard,
    ...(door ? { watch: (req, res) => door.watch(req, res) } : {}),
    refused: (req, refusal) => {
      door?.refused(req, refusal);
      noticeRefusal?.(req, refusal);
    },
    ...(stdio
      ? { stdio: { mcpPath, handle: (req, res, cors) => stdio!.bridge.handle(req, res, cors) } }
      : {
          forward: {
            upstreamOrigin: new URL(upstreamUrl).origin,
            mcpPath,
            legacy: new LegacyEndpoints(),
            record,
            ...(options.capture === false ? {} : { largeBody: () => pipeline.largeBody() }),
            request,
            now,
            nextConnectionId: () => `h${++connections}`,
            ...(publicBase ? { publicBase } : {}),
            ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
            credentialOf: credentialFingerprinter(credentialKey),
            onRequestHeaders: (sessionKey: string, headers: IncomingHttpHeaders) => replay.credentials.remember(sessionKey, headers),
            intercept,
          },
        }),
  });
  // Responses the door can watch without wrapping each one (door/response-watch.ts).
  const tapHttp = createServer({ ServerResponse: WatchedResponse }, tapHandler);
  // A request the HTTP parser refuses never reaches the handler: answer it as Node would, and
  // record it at the door too.
  tapHttp.on('clientError', (err: Error & { code?: string }, socket) => {
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    if (door && err.code !== 'ECONNRESET') door.parserRefused(err, socket as import('node:net').Socket, status);
    if (socket.writable) socket.write(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\n\r\n`);
    socket.destroy();
  });
  // Tunnels pool their connections to the tap; closing idle ones sooner than a tunnel does races
  // its next request into a 502, so the tap outlasts them (cloudflared keeps them 90 s).
  tapHttp.keepAliveTimeout = 120_000;
  // Traffic only once the capture engine takes ticks: a recorded frame is committed within a tick.
  await pipeline.started();
  const tapServer = await listen(tapHttp.listen(options.port ?? 0, host));
  // Named by the address actually bound: `--host ::1` listens on [::1] only, not on 127.0.0.1.
  const tapAddress = tapServer.address() as AddressInfo;
  const tapUrl = `http://${urlHostOf(tapAddress.address)}:${tapAddress.port}`;
  const mcpUrl = tapUrl + mcpPath;

  const dashboard = await startDashboardListener({
    services: {
      store,
      query: new CaptureQuery(store),
      hub,
      exports: { source: store, startImport: () => pipeline.startImport(), upstream: shownUrl(upstreamUrl) },
      replay: { service: replay.service, tapOrigin: tapUrl },
      drive: { drive: replay.drive, service: replay.service },
      evidence: { source: store, controlReplay: evidenceReplay(replay.service) },
      tapHosts: { list: () => acceptedHosts.list(), accept: (h) => acceptedHosts.accept(h) },
      ...(stdio ? {} : { intercept: interceptRouteDeps(intercept) }),
      ...(otlp ? { otlp } : {}),
      capture: {
        status: captureFeed.status,
        marks: captureFeed.marks,
        controls: { pause: () => void pipeline.marks.pauseByUser(), resume: () => void pipeline.marks.resumeByUser(), mark: (label) => pipeline.marks.add(label) },
      },
      agentMcp: agentEndpoint(store, options.allowAgentReplay ? replay.service : undefined, stdio ? undefined : { url: new URL(upstreamUrl), request }),
      info: {
        info: { tapUrl, mcpUrl, upstreamUrl, demo: demo !== undefined, ...(publicBase ? { publicOrigin: new URL(publicBase).origin } : {}) },
        ...(demo ? { sampleCall: async () => (await import('../demo/sample-call.js')).sampleCall(mcpUrl) } : {}),
      },
    },
    widgets: new WidgetService({ catalog: new WidgetCatalog(store), upstream: replay.behalf, linkMode: WIDGET_LINK, server: shownUrl(upstreamUrl), files: widgetFiles }),
    widgetFiles,
    ...(options.widgetPort !== undefined ? { widgetPort: options.widgetPort } : {}),
    ...(options.uiPort !== undefined ? { port: options.uiPort } : {}),
    ...(options.uiHost !== undefined ? { host: options.uiHost } : {}),
    token,
    ...(options.webRoot !== undefined ? { webRoot: options.webRoot } : {}),
  });

  return {
    tapUrl,
    mcpUrl,
    ...(publicBase ? { publicMcpUrl: publicBase + mcpPath } : {}),
    ...(stdio ? { stdio } : {}),
    dashboardUrl: dashboard.url,
    widgetPort: dashboard.widgetPort,
    dashboardLoginUrl: dashboard.loginUrl,
    token: dashboard.token,
    upstreamUrl,
    dbFile,
    ...(demo ? { demo } : {}),
    store,
    pipeline,
    hub,
    ...(otlp ? { otlp } : {}),
    intercept,
    close: async () => {
      // Held frames go on unchanged: closing never leaves a client waiting on a breakpoint.
      intercept.close();
      hub.close();
      await replay.close();
      await Promise.all([closeServer(tapServer), dashboard.close()]);
      await demo?.close();
      await stdio?.close();
      pipeline.close();
      // After the pipeline's last batch, before the store it reads from closes.
      await otlp?.close();
      store.close();
    },
  };
}
