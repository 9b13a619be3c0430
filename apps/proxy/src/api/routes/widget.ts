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
 * - `GET /widget/:id?resource=RID` → WidgetPreview with the HTML of that resources/read
 * - `GET /widget/:id/results` → other captured calls of the same tool
 * - `PUT /widget/:id/file` `{ path }` → WidgetFileState: a local file stands in for the widget's
 *   HTML, read-only and watched (the same token and Origin checks: no page names a file);
 *   `DELETE /widget/:id/file` stops it
 * - `GET /widget-files/events` → NDJSON WidgetFileEvent lines: every file served now, then each change
 */
import { Hono } from 'hono';
import { isJsonObject, type WidgetCallResponse, type WidgetCapturedResult, type WidgetConsent, type WidgetFileEvent, type WidgetFileState, type WidgetPreview } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import { parseWidgetCall, parseWidgetConsent, type WidgetService } from '../../widget-host/widget-service.js';
import type { WidgetFiles } from '../../widget-host/widget-files.js';

export interface WidgetRouteDeps {
  service: WidgetService;
  /** The widget sandbox listener's port: previews are framed from `http://<label>.localhost:PORT`. */
  sandboxPort: number;
  files?: WidgetFiles;
}

export function widgetRoutes(deps: WidgetRouteDeps): Hono {
  const app = new Hono();
  const withSandbox = (preview: WidgetPreview): WidgetPreview => ({ ...preview, sandboxPort: deps.sandboxPort });
  app.get('/widget/:id/declaration', (c) => c.json(deps.service.declaration(c.req.param('id'))));
  app.get('/widget/:id', (c) => {
    const resource = c.req.query('resource');
    return c.json<WidgetPreview>(withSandbox(deps.service.preview(c.req.param('id'), resource ? { resource } : {})));
  });
  app.get('/widget/:id/results', (c) => c.json<WidgetCapturedResult[]>(deps.service.otherResults(c.req.param('id'))));
  app.put('/widget/:id/file', async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    if (!isJsonObject(body) || typeof body.path !== 'string') throw new InspectorError('bad_param', 'Send a JSON object: { path } (an absolute path to the widget\'s .html file).');
    return c.json<WidgetFileState>(deps.service.useFile(c.req.param('id'), body.path));
  });
  app.delete('/widget/:id/file', (c) => c.json(deps.service.stopFile(c.req.param('id'))));
  app.get('/widget-files/events', (c) => {
    const files = deps.files;
    if (!files) throw new InspectorError('not_found', 'This dashboard serves no local widget files.');
    const encoder = new TextEncoder();
    let unsubscribe = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (event: WidgetFileEvent) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        for (const file of files.all()) send({ type: 'changed', file });
        unsubscribe = files.subscribe(send);
        c.req.raw.signal.addEventListener('abort', () => {
          unsubscribe();
          try {
            controller.close();
          } catch {
            // Already cancelled by the reader.
          }
        });
      },
      cancel() {
        unsubscribe();
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' } });
  });
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
