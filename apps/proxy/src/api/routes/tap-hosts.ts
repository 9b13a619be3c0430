/**
 * Host names the tap accepts for this run, chosen in the dashboard:
 * - `GET /tap/hosts` → TapHostsResponse
 * - `POST /tap/hosts` `{ "host": "brave-otter.trycloudflare.com" }` → TapHostsResponse
 * Mounted inside the token-guarded `/api` behind the dashboard's Host and Origin checks, like
 * every dashboard POST: only the person who launched mcpscope, on its loopback page, can accept a
 * Host, and only by asking (the dashboard's button names the Host and where its requests came
 * from). The body must be JSON, which a cross-site form cannot send without a preflight.
 */
import { Hono } from 'hono';
import type { TapHostsResponse } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';

export interface TapHostsRouteDeps {
  list(): string[];
  accept(host: string): { ok: true; host: string } | { ok: false; message: string };
}

export function tapHostRoutes(deps: TapHostsRouteDeps): Hono {
  const app = new Hono();
  app.get('/tap/hosts', (c) => c.json<TapHostsResponse>({ accepted: deps.list() }));
  app.post('/tap/hosts', async (c) => {
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) {
      throw new InspectorError('bad_request', 'Send { "host": "NAME" } as application/json.');
    }
    const body: unknown = await c.req.json().catch(() => undefined);
    const host = typeof body === 'object' && body !== null ? (body as { host?: unknown }).host : undefined;
    if (typeof host !== 'string') throw new InspectorError('bad_request', 'Send { "host": "NAME" }: the Host to accept for this run.');
    const accepted = deps.accept(host);
    if (!accepted.ok) throw new InspectorError('bad_request', accepted.message);
    return c.json<TapHostsResponse>({ accepted: deps.list() });
  });
  return app;
}
