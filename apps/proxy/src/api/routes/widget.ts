/**
 * The widget preview API, inside the dashboard's token-protected `/api` (contract:
 * packages/protocol/src/contract/widget-api.ts):
 * - `GET /widget/:id/declaration` → `{ toolName, declaration? }`: does the call's tool declare a widget
 * - `GET /widget/:id` → WidgetPreview of the tools/call `id`
 * - `POST /widget/:id/read` → WidgetPreview, after reading the widget resource through mcpscope's
 *   own session (the capture had none)
 * - `POST /widget/:id/call` `{ bridge, name, arguments?, mode }` → WidgetCallResponse, or 403
 *   `widget_call_refused` with the reason a host would give, or 403 `widget_consent_needed` until
 *   the user allowed the widget to call that tool
 * - `POST /widget/:id/consent` `{ tool }` → WidgetConsent: the user's allow, given in the dashboard
 *   (this API's token and Origin checks keep the widget's sandbox origin out)
 */
import { Hono } from 'hono';
import type { WidgetCallResponse, WidgetConsent, WidgetPreview } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import { parseWidgetCall, parseWidgetConsent, type WidgetService } from '../../widget-host/widget-service.js';

export interface WidgetRouteDeps {
  service: WidgetService;
  /** The widget sandbox listener's port: previews are framed from `http://<label>.localhost:PORT`. */
  sandboxPort: number;
}

export function widgetRoutes(deps: WidgetRouteDeps): Hono {
  const app = new Hono();
  const withSandbox = (preview: WidgetPreview): WidgetPreview => ({ ...preview, sandboxPort: deps.sandboxPort });
  app.get('/widget/:id/declaration', (c) => c.json(deps.service.declaration(c.req.param('id'))));
  app.get('/widget/:id', (c) => c.json<WidgetPreview>(withSandbox(deps.service.preview(c.req.param('id')))));
  app.post('/widget/:id/read', async (c) => c.json<WidgetPreview>(withSandbox(await deps.service.readNow(c.req.param('id'), c.req.raw.signal))));
  app.post('/widget/:id/call', async (c) => {
    const parsed = parseWidgetCall(await c.req.json().catch(() => undefined));
    if (typeof parsed === 'string') throw new InspectorError('bad_param', parsed);
    return c.json<WidgetCallResponse>(await deps.service.call(c.req.param('id'), parsed, c.req.raw.signal));
  });
  app.post('/widget/:id/consent', async (c) => {
    const parsed = parseWidgetConsent(await c.req.json().catch(() => undefined));
    if (typeof parsed === 'string') throw new InspectorError('bad_param', parsed);
    return c.json<WidgetConsent>(deps.service.consent(c.req.param('id'), parsed.tool));
  });
  return app;
}
