/**
 * `GET /api/info`: where clients connect, for the first-run page; and, in demo mode,
 * `POST /api/demo/sample-call`, which sends one sample tools/call through the tap.
 */
import { Hono } from 'hono';
import type { DashboardInfo } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';

export interface InfoRouteDeps {
  info?: DashboardInfo;
  /** Demo mode only. */
  sampleCall?: () => Promise<void>;
}

export function infoRoutes(deps: InfoRouteDeps): Hono {
  const app = new Hono();
  app.get('/info', (c) => {
    if (!deps.info) throw new InspectorError('not_found', 'No info.');
    return c.json(deps.info);
  });
  app.post('/demo/sample-call', async (c) => {
    if (!deps.sampleCall) throw new InspectorError('demo_off', 'Sample calls need the embedded demo server (start without --target).');
    try {
      await deps.sampleCall();
    } catch (err) {
      throw new InspectorError('sample_call_failed', (err as Error).message);
    }
    return c.json({ ok: true });
  });
  return app;
}
