/**
 * The replay API, mounted inside the dashboard's token-protected `/api`:
 * - `POST /replay` `{ exchangeId?, sessionKey?, message, mode }` → the new exchange (ReplayResponse)
 * - `POST /replay/curl` → `{ command }`
 * - `GET /replay/links/:id` → `{ replayOf?, replays[] }`
 * - `GET /replay/tools?session=KEY` → the session's tools from its latest `tools/list`
 * - `GET /replay/inputs`, `POST /replay/inputs/:key` → server requests waiting for the user
 * Replay's error values become HTTP answers here and nowhere else.
 */
import { Hono, type Context } from 'hono';
import { isJsonObject, type CurlResponse, type ReplayFailure, type ReplayInputAnswer, type ReplayInputsResponse, type ReplayToolsResponse, type ReplayLinks } from '@mcpscope/protocol';
import { curlCommand } from '../export/curl.js';
import { parseReplayBody } from './replay-body.js';
import { replayStatus, type ReplayError } from './replay-errors.js';
import { planReplay } from './replay-plan.js';
import type { ReplayService } from './replay-service.js';
import { wireHeaders } from './wire-headers.js';
import { REDACTED } from '../security/redact.js';

export interface ReplayRouteDeps {
  service: ReplayService;
  /** Where the tap serves the upstream's paths, for "copy as curl" (the call is captured too). */
  tapOrigin: string;
}

export function replayRoutes(deps: ReplayRouteDeps): Hono {
  const { service } = deps;
  const { store, inputs } = service.deps;
  const app = new Hono();

  app.post('/replay', async (c) => {
    const parsed = parseReplayBody(await jsonBody(c), ['exchangeId', 'sessionKey', 'message', 'mode']);
    if (!parsed.ok) return failure(c, parsed.error);
    const result = await service.replay(parsed.value, c.req.raw.signal);
    return result.ok ? c.json(result.value) : failure(c, result.error);
  });

  app.post('/replay/curl', async (c) => {
    const parsed = parseReplayBody(await jsonBody(c), ['exchangeId', 'sessionKey', 'message', 'mode', 'secrets']);
    if (!parsed.ok) return failure(c, parsed.error);
    const planned = planReplay(parsed.value, service.deps);
    if (!planned.ok) return failure(c, planned.error);
    const plan = planned.value;
    const { headers, missingCredentials } = wireHeaders(plan.message, plan.wire);
    const secretNames = [...missingCredentials, ...Object.keys(plan.wire.credentials)];
    for (const [name, value] of Object.entries(plan.wire.captured ?? {})) if (value.includes(REDACTED)) secretNames.push(name);
    const command = curlCommand({
      url: new URL(plan.path, deps.tapOrigin).href,
      headers,
      body: JSON.stringify(plan.message),
      secretNames: [...new Set(secretNames)],
      ...(parsed.value.secrets ? { secretValues: plan.wire.credentials } : {}),
    });
    return c.json<CurlResponse>({ command });
  });

  app.get('/replay/links/:id', (c) => {
    const id = c.req.param('id');
    if (!store.exchange(id)) return failure(c, { code: 'not_found', message: `No exchange ${id} in the capture.` });
    const links: ReplayLinks = { replays: store.replays(id) };
    const replayOf = store.replayOf(id);
    if (replayOf !== undefined) links.replayOf = replayOf;
    return c.json(links);
  });

  app.get('/replay/tools', (c) => {
    const session = c.req.query('session');
    if (!session) return failure(c, { code: 'bad_request', message: 'Name the session: ?session=KEY.' });
    return c.json<ReplayToolsResponse>({ tools: store.tools(session) });
  });

  app.get('/replay/inputs', (c) => c.json<ReplayInputsResponse>({ inputs: inputs.list() }));

  app.post('/replay/inputs/:key', async (c) => {
    const body = await jsonBody(c);
    if (!isJsonObject(body) || (body.action !== 'answer' && body.action !== 'decline') || (body.action === 'answer' && !isJsonObject(body.result))) {
      return failure(c, { code: 'bad_request', message: 'Send { "action": "answer", "result": {…} } or { "action": "decline" }.' });
    }
    const answered = await inputs.answer(c.req.param('key'), body as ReplayInputAnswer);
    return answered.ok ? c.body(null, 204) : failure(c, answered.error);
  });

  return app;
}

async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

function failure(c: Context, error: ReplayError): Response {
  const body: ReplayFailure = { error: { code: error.code, message: error.message } };
  if (error.exchange) body.exchange = error.exchange;
  if (error.retryWith) body.retryWith = error.retryWith;
  return c.json(body, replayStatus(error.code));
}
