/**
 * Intercept rules from the dashboard (the tap's listener never takes control messages):
 * - `GET /intercept` → InterceptResponse (rules, held frames, interventions with reactions)
 * - `POST /intercept/rules` `{ "text": "tool:search => delay 5s" }` → the rule (400 names the position of a mistake)
 * - `PATCH /intercept/rules/:id` `{ "enabled": false }`, `DELETE /intercept/rules/:id`
 * - `POST /intercept/held/:id/release` `{ "text"?: "…edited frame…" }`, `POST /intercept/held/:id/drop`
 * Mounted inside the token-guarded `/api`, behind the dashboard's Host and Origin checks; bodies
 * must be JSON. A reopened capture (`mcpscope open`) lists its rules and interventions, read-only.
 */
import { Hono, type Context } from 'hono';
import type { FilterError, HeldFrameView, InterceptResponse, Intervention, RuleView, StoredRule } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';

export interface InterceptRouteDeps {
  rules(): RuleView[];
  held(): HeldFrameView[];
  interventions(): Intervention[];
  /** Absent for a reopened capture. */
  control?: {
    add(text: string): { ok: true; rule: StoredRule & { action: string } } | { ok: false; error: FilterError };
    setEnabled(id: string, enabled: boolean): boolean;
    remove(id: string): boolean;
    release(id: number, text?: string): boolean;
    drop(id: number): boolean;
  };
}

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) throw new InspectorError('bad_request', 'Send a JSON body (application/json).');
  const body: unknown = await c.req.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InspectorError('bad_request', 'Send a JSON object.');
  return body as Record<string, unknown>;
}

export function interceptRoutes(deps: InterceptRouteDeps): Hono {
  const app = new Hono();
  const control = () => {
    if (!deps.control) throw new InspectorError('no_upstream', 'This capture was reopened: its rules are shown, not run.');
    return deps.control;
  };
  const found = (ok: boolean, what: string) => {
    if (!ok) throw new InspectorError('not_found', `No ${what} with that id (a held frame may have gone on at its deadline).`);
  };
  app.get('/intercept', (c) => c.json<InterceptResponse>({ live: deps.control !== undefined, rules: deps.rules(), held: deps.held(), interventions: deps.interventions() }));
  app.post('/intercept/rules', async (c) => {
    const body = await jsonBody(c);
    if (typeof body.text !== 'string') throw new InspectorError('bad_request', 'Send { "text": "FILTER => ACTION [COUNT]" }.');
    const added = control().add(body.text);
    if (!added.ok) throw new InspectorError('bad_filter', `rule: ${added.error.message} (at ${added.error.position})`, { position: added.error.position, length: added.error.length });
    return c.json(added.rule, 201);
  });
  app.patch('/intercept/rules/:id', async (c) => {
    const body = await jsonBody(c);
    if (typeof body.enabled !== 'boolean') throw new InspectorError('bad_request', 'Send { "enabled": true | false }.');
    found(control().setEnabled(c.req.param('id'), body.enabled), 'rule');
    return c.json({ ok: true });
  });
  app.delete('/intercept/rules/:id', (c) => {
    found(control().remove(c.req.param('id')), 'rule');
    return c.json({ ok: true });
  });
  app.post('/intercept/held/:id/release', async (c) => {
    const body = await jsonBody(c);
    if (body.text !== undefined && typeof body.text !== 'string') throw new InspectorError('bad_request', 'text, when given, is the frame to send instead (a string).');
    found(control().release(Number(c.req.param('id')), body.text as string | undefined), 'held frame');
    return c.json({ ok: true });
  });
  app.post('/intercept/held/:id/drop', (c) => {
    found(control().drop(Number(c.req.param('id'))), 'held frame');
    return c.json({ ok: true });
  });
  return app;
}
