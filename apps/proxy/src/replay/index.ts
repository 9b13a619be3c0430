/**
 * Replay, assembled: the credentials memory the tap feeds, the HTTP replay transport to the
 * configured upstream, the service and its routes. server.ts wires this in three places.
 */
import type { CapturePipeline } from '../capture/capture-pipeline.js';
import type { CaptureStore } from '../capture/capture-store.js';
import type { UpstreamFetch } from './upstream-fetch.js';
import { SessionCredentials } from './credentials.js';
import { HttpReplayTransport } from './http-transport.js';
import { ReplayInputs } from './replay-inputs.js';
import { replayRoutes } from './replay-routes.js';
import { ReplayService } from './replay-service.js';
import { ReplayStore } from './replay-store.js';
import type { ReplayTransport } from './replay-transport.js';

export type { ReplayTransport } from './replay-transport.js';
export { SessionCredentials } from './credentials.js';

export interface ReplayOptions {
  store: CaptureStore;
  pipeline: CapturePipeline;
  upstreamUrl: string;
  fetch: UpstreamFetch;
  now(): number;
  /** Another way to reach the server (e.g. the stdio bridge); HTTP to the upstream otherwise. */
  transport?: ReplayTransport;
  timeoutMs?: number;
  inputTimeoutMs?: number;
}

export interface Replay {
  credentials: SessionCredentials;
  routes(tapOrigin: string): ReturnType<typeof replayRoutes>;
  close(): Promise<void>;
}

export function createReplay(options: ReplayOptions): Replay {
  const upstream = new URL(options.upstreamUrl);
  const credentials = new SessionCredentials();
  let connections = 0;
  const transport = options.transport ?? new HttpReplayTransport({ upstreamOrigin: upstream.origin, fetch: options.fetch, nextConnectionId: () => `r${++connections}`, now: options.now });
  const service = new ReplayService({
    store: new ReplayStore(options.store),
    pipeline: options.pipeline,
    credentials,
    transport,
    inputs: new ReplayInputs(options.inputTimeoutMs),
    upstreamPath: upstream.pathname + upstream.search,
    now: options.now,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return {
    credentials,
    routes: (tapOrigin) => replayRoutes({ service, tapOrigin }),
    close: () => service.close(),
  };
}
