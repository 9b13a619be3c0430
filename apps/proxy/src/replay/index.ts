/**
 * Replay, assembled: the credentials memory the tap feeds, the transport to the configured
 * upstream (HTTP, or a copy of the stdio server) and the service. compose/ wires it to the tap
 * (credentials) and the API (the service).
 */
import type { CapturePipeline } from '../capture/capture-pipeline.js';
import type { CaptureStore } from '../capture/capture-store.js';
import type { UpstreamRequest } from '../upstream/upstream-request.js';
import { SessionCredentials } from './credentials.js';
import { HttpReplayTransport } from './http-transport.js';
import { StdioReplayTransport } from './stdio-transport.js';
import { ReplayInputs } from './replay-inputs.js';
import { ReplayService } from './replay-service.js';
import { ReplayStore } from './replay-store.js';
import type { ReplayTransport } from './replay-transport.js';
import { BehalfChannels } from './on-behalf.js';
import { DriveCheck } from './drive-check.js';
import { DriveService } from './drive-service.js';
import type { ServerAnswerDefaults } from '@mcpscope/protocol';

export type { ReplayTransport } from './replay-transport.js';
export type { OnBehalf } from './on-behalf.js';
export { SessionCredentials } from './credentials.js';
export { DriveService } from './drive-service.js';
export { parseServerAnswers } from './server-answers.js';

export interface ReplayOptions {
  store: CaptureStore;
  pipeline: CapturePipeline;
  /** The HTTP upstream; or, for `--stdio`, the command whose own copy a fresh replay spawns. */
  upstreamUrl?: string;
  stdioArgv?: string[];
  request: UpstreamRequest;
  now(): number;
  /** Another way to reach the server (e.g. the stdio bridge); HTTP to the upstream otherwise. */
  transport?: ReplayTransport;
  timeoutMs?: number;
  inputTimeoutMs?: number;
  /** Answers for the server's requests when nobody is at the dashboard (`--server-answers`). */
  serverAnswers?: ServerAnswerDefaults;
}

export interface Replay {
  credentials: SessionCredentials;
  service: ReplayService;
  /** Sends for a widget preview (or anything else that is not the user's own replay). */
  behalf: BehalfChannels;
  /** The dashboard's Drive panel: form-built calls into mcpscope's own session or a captured one. */
  drive: DriveService;
  close(): Promise<void>;
}

export function createReplay(options: ReplayOptions): Replay {
  const upstream = new URL(options.upstreamUrl ?? 'stdio:/mcp');
  const credentials = new SessionCredentials();
  let connections = 0;
  const transport =
    options.transport ??
    (options.stdioArgv
      ? new StdioReplayTransport(options.stdioArgv)
      : new HttpReplayTransport({ upstreamOrigin: upstream.origin, request: options.request, nextConnectionId: () => `r${++connections}`, now: options.now }));
  const service = new ReplayService({
    store: new ReplayStore(options.store),
    pipeline: options.pipeline,
    credentials,
    transport,
    inputs: new ReplayInputs(options.inputTimeoutMs, options.serverAnswers),
    upstreamPath: options.stdioArgv ? '/mcp' : upstream.pathname + upstream.search,
    now: options.now,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const behalf = new BehalfChannels(service);
  return {
    credentials,
    service,
    behalf,
    drive: new DriveService({ behalf, store: service.deps.store, check: new DriveCheck() }),
    close: () => service.close(),
  };
}

