/**
 * The replay API, mounted inside the dashboard's token-protected `/api`:
 * - `POST /replay` `{ exchangeId?, sessionKey?, message, mode }` → the new exchange (ReplayResponse)
 * - `POST /replay/curl` → `{ command }`: what the replay would send, as a curl command
 * - `GET /replay/links/:id` → `{ replayOf?, replays[] }`
 * - `GET /replay/tools?session=KEY` → the session's tools from its latest `tools/list`
 * - `GET /replay/inputs`, `POST /replay/inputs/:key` → server requests waiting for the user
 * Replay's error values become HTTP answers here and nowhere else. A dashboard over a file
 * (`mcpscope open`) sends nothing: its sending routes say so, and its reads (links, tools, no
 * inputs waiting) answer from the file as a live dashboard's do (`replayRefusedRoutes`).
 */
import { Hono, type Context } from 'hono';
import { isJsonObject, type CurlResponse, type ReplayFailure, type ReplayInputAnswer, type ReplayInput, type ReplayInputsResponse, type ReplayToolsResponse } from '@mcpscope/protocol';
import { curlCommand } from '../../interchange/curl.js';
import { parseReplayBody } from '../../replay/replay-body.js';
import type { ReplayError } from '../../replay/replay-errors.js';
import { errorStatus, InspectorError } from '../../core/errors.js';
import type { ReplayService } from '../../replay/replay-service.js';
import type { ReplayStore } from '../../replay/replay-store.js';

export interface ReplayRouteDeps {
  service: ReplayService;
  /** Where the tap serves the upstream's paths, for "copy as curl" (the call is captured too). */
  tapOrigin: string;
}

export function replayRoutes(deps: ReplayRouteDeps): Hono {
  const { service } = deps;
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
    const wire = service.wireRequest(parsed.value);
    if (!wire.ok) return failure(c, wire.error);
    const { path, headers, body, secretNames, credentials } = wire.value;
    const command = curlCommand({
      url: new URL(path, deps.tapOrigin).href,
      headers,
      body,
      secretNames,
      ...(parsed.value.secrets ? { secretValues: credentials } : {}),
    });
    return c.json<CurlResponse>({ command });
  });

  app.route('/', replayReadRoutes(service, () => service.pendingInputs()));

  app.post('/replay/inputs/:key', async (c) => {
    const body = await jsonBody(c);
    if (!isJsonObject(body) || (body.action !== 'answer' && body.action !== 'decline') || (body.action === 'answer' && !isJsonObject(body.result))) {
      return failure(c, { code: 'bad_request', message: 'Send { "action": "answer", "result": {…} } or { "action": "decline" }.' });
    }
    const answered = await service.answerInput(c.req.param('key'), body as ReplayInputAnswer);
    return answered.ok ? c.body(null, 204) : failure(c, answered.error);
  });

  return app;
}

export async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

export function failure(c: Context, error: ReplayError): Response {
  const body: ReplayFailure = { error: { code: error.code, message: error.message } };
  if (error.exchange) body.exchange = error.exchange;
  if (error.retryWith) body.retryWith = error.retryWith;
  return c.json(body, errorStatus(error.code) as 400);
}

/** What replay reads from the capture: the same on a live dashboard and one over a file. */
type ReplayReads = Pick<ReplayStore, 'links' | 'tools'>;

function replayReadRoutes(reads: ReplayReads, pendingInputs: () => ReplayInput[]): Hono {
  const app = new Hono();
  app.get('/replay/links/:id', (c) => {
    const id = c.req.param('id');
    const links = reads.links(id);
    return links ? c.json(links) : failure(c, { code: 'not_found', message: `No exchange ${id} in the capture.` });
  });
  app.get('/replay/tools', (c) => {
    const session = c.req.query('session');
    if (!session) return failure(c, { code: 'bad_request', message: 'Name the session: ?session=KEY.' });
    return c.json<ReplayToolsResponse>({ tools: reads.tools(session) });
  });
  app.get('/replay/inputs', (c) => c.json<ReplayInputsResponse>({ inputs: pendingInputs() }));
  return app;
}

/**
 * Where nothing can be sent (`mcpscope open`): every sending route answers read_only, saying why;
 * the reads answer from the file, and no server request ever waits there.
 */
export function replayRefusedRoutes(reads: ReplayReads): Hono {
  const app = new Hono();
  const refuse = () => {
    throw new InspectorError('read_only', 'This dashboard shows a file read-only (mcpscope open): nothing is sent from it. To replay, run mcpscope --target URL (the server to send to) and replay from its dashboard.');
  };
  app.route('/', replayReadRoutes(reads, () => []));
  app.post('/replay', refuse);
  app.post('/replay/*', refuse);
  return app;
}
