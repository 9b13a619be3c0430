/**
 * Door records: `GET /api/requests?after=ID&limit=N&filter=EXPR`, every HTTP request the tap
 * received (any path, any method, refused ones too), oldest first, paged like `/api/frames` and
 * filtered on the server with the same language; `GET /api/requests/:id`, one record.
 */
import { Hono } from 'hono';
import type { DoorRecord, RequestsPage } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import type { ApiDeps } from '../api-deps.js';
import { filterParam, intParam } from '../params.js';

export const MAX_REQUESTS_PAGE = 5000;

export function requestRoutes(deps: ApiDeps): Hono {
  const app = new Hono();

  app.get('/requests', (c) => {
    const after = intParam(c, 'after', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
    const limit = intParam(c, 'limit', { fallback: 500, min: 1, max: MAX_REQUESTS_PAGE });
    const filter = filterParam(c);
    const { id: head, rev } = deps.store.door.heads();
    const page = deps.store.door.page(filter, after, limit);
    return c.json<RequestsPage>({ head, rev, ...page });
  });

  app.get('/requests/:id', (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || id < 1) throw new InspectorError('bad_param', `"${c.req.param('id')}" is not a request id.`);
    const record = deps.store.door.get(id);
    if (!record) throw new InspectorError('not_found', `No request ${id} (it may have been removed by retention).`);
    return c.json<DoorRecord>(record);
  });

  return app;
}
