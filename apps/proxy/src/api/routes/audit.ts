/**
 * `GET /api/audit`: the readiness audit over the running capture, for the dashboard's Readiness
 * view (`?submit=1` adds the submission checks, `?serverUrl=` names the connector URL).
 */
import { Hono } from 'hono';
import { auditCapture } from '../../audit/audit-run.js';
import type { ApiDeps } from '../api-deps.js';

export function auditRoutes(deps: ApiDeps): Hono {
  const app = new Hono();
  app.get('/audit', (c) => {
    const serverUrl = c.req.query('serverUrl');
    return c.json(auditCapture(deps.store, { submitting: c.req.query('submit') === '1', ...(serverUrl ? { serverUrl } : {}) }));
  });
  return app;
}
