/**
 * Replay, assembled: the credentials memory the tap feeds, the HTTP replay transport to the
 * configured upstream, the service and its routes. server.ts wires this in three places.
 */
import type { CapturePipeline } from '../capture/capture-pipeline.js';
import type { CaptureStore } from '../capture/capture-store.js';
import { Hono } from 'hono';
import type { UpstreamRequest } from '../tap/upstream-request.js';
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
  request: UpstreamRequest;
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
  const transport = options.transport ?? new HttpReplayTransport({ upstreamOrigin: upstream.origin, request: options.request, nextConnectionId: () => `r${++connections}`, now: options.now });
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

/** Routes for a target replay cannot reach yet: every replay call says why, instead of a 404. */
export function replayUnavailable(reason: string): Hono {
  const app = new Hono();
  app.all('/replay', (c) => c.json({ error: { code: 'replay_unavailable', message: reason } }, 409));
  app.all('/replay/*', (c) => c.json({ error: { code: 'replay_unavailable', message: reason } }, 409));
  return app;
}
