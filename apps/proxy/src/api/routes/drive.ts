/**
 * The Drive panel's API, mounted inside the dashboard's token-protected `/api`:
 * - `POST /drive/own` `{ renew? }` → `{ sessionKey }`: mcpscope's own dashboard session
 * - `POST /drive/send` `{ message, mode, sessionKey?, from?, anyway? }` → the sent exchange with
 *   the violations it carried; 422 `{ error, violations }` (nothing sent) when the arguments break
 *   the schema and `anyway` is not set
 * - `GET /drive/lists?session=KEY` → the session's latest tools, prompts, resources, templates
 * - `GET /drive/answers`, `PUT /drive/answers` → the answers for unattended runs
 * Like replay, it only ever sends to the configured upstream. Where there is none (`mcpscope
 * open`), `driveRefusedRoutes` answers every one of these routes read_only, saying why.
 */
import { Hono } from 'hono';
import { InspectorError } from '../../core/errors.js';
import { isJsonObject, type DriveLists, type DriveOwnResponse, type DriveRefusal, type ServerAnswerDefaults } from '@mcpscope/protocol';
import { parseReplayBody } from '../../replay/replay-body.js';
import type { DriveService } from '../../replay/drive-service.js';
import type { ReplayService } from '../../replay/replay-service.js';
import { parseServerAnswers } from '../../replay/server-answers.js';
import { failure, jsonBody } from './replay.js';

export interface DriveRouteDeps {
  drive: DriveService;
  service: ReplayService;
}

export function driveRoutes(deps: DriveRouteDeps): Hono {
  const app = new Hono();

  app.post('/drive/own', async (c) => {
    const body = await jsonBody(c);
    const opened = await deps.drive.openOwn(isJsonObject(body) && body.renew === true, c.req.raw.signal);
    return opened.ok ? c.json<DriveOwnResponse>(opened.value) : failure(c, opened.error);
  });

  app.post('/drive/send', async (c) => {
    const body = await jsonBody(c);
    const parsed = parseReplayBody(isJsonObject(body) ? withoutDriveFields(body) : body, ['sessionKey', 'message', 'mode']);
    if (!parsed.ok) return failure(c, parsed.error);
    const from = isJsonObject(body) ? body.from : undefined;
    if (from !== undefined && typeof from !== 'string') return failure(c, { code: 'bad_request', message: '"from" must be an exchange id.' });
    const { message, mode, sessionKey } = parsed.value;
    const sent = await deps.drive.send(
      { message, mode, ...(sessionKey !== undefined ? { sessionKey } : {}), ...(from !== undefined ? { from } : {}), anyway: isJsonObject(body) && body.anyway === true },
      c.req.raw.signal,
    );
    if (sent.ok) return c.json(sent.value);
    if ('violations' in sent) {
      const refusal: DriveRefusal = { error: { code: 'arguments_invalid', message: 'The arguments break the schema; nothing was sent. Send anyway to see what the server does with them.' }, violations: sent.violations };
      return c.json(refusal, 422);
    }
    return failure(c, sent.error);
  });

  app.get('/drive/lists', (c) => {
    const session = c.req.query('session');
    if (!session) return failure(c, { code: 'bad_request', message: 'Name the session: ?session=KEY.' });
    return c.json<DriveLists>(deps.drive.lists(session));
  });

  app.get('/drive/answers', (c) => c.json<ServerAnswerDefaults>(deps.service.serverAnswers));
  app.put('/drive/answers', async (c) => {
    const parsed = parseServerAnswers(await jsonBody(c));
    if (!parsed.ok) return failure(c, parsed.error);
    deps.service.serverAnswers = parsed.value;
    return c.json<ServerAnswerDefaults>(parsed.value);
  });

  return app;
}

/** Where nothing can be driven (`mcpscope open`): every Drive route answers read_only, saying why. */
export function driveRefusedRoutes(): Hono {
  const app = new Hono();
  app.all('/drive/*', () => {
    throw new InspectorError('read_only', 'This capture is opened read-only (mcpscope open): there is no live server to drive. To call its tools, run mcpscope --target URL (the server) and use Drive in that dashboard.');
  });
  return app;
}

function withoutDriveFields(body: Record<string, unknown>): Record<string, unknown> {
  const { from: _from, anyway: _anyway, ...rest } = body;
  return rest;
}
