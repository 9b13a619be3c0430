/**
 * Door records: `GET /api/requests?after=ID&limit=N&filter=EXPR`, every HTTP request the tap
 * received (any path, any method, refused ones too), oldest first, paged like `/api/frames` and
 * filtered on the server with the same language; `GET /api/requests/window?filter=EXPR&limit=N`
 * with one of `offset=N`, `end=1` or `around=ID`, the same list read by position with its length
 * (capture/door-window.ts); `GET /api/requests/:id`, one record;
 * `GET /api/requests/refused`, what the tap's guard refused, per Host and Origin: how many times,
 * the latest samples and the guard's reason (one record each, newest first).
 */
import { Hono } from 'hono';
import type { DoorRecord, DoorRefusalSample, RequestsPage, RequestsWindowPage } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import { DoorWindows, type DoorWindowAt } from '../../capture/door-window.js';
import type { ApiDeps } from '../api-deps.js';
import { filterParam, intParam } from '../params.js';

export const MAX_REQUESTS_PAGE = 5000;

/** One Host and Origin pair the guard refused, as `GET /api/requests/refused` lists it. */
export interface RefusalSummary {
  /** The door record that stands for the pair (`GET /api/requests/:id`). */
  requestId: number;
  host?: string;
  origin?: string;
  /** The guard's reason, with the flag that would let the pair in. */
  reason: string;
  count: number;
  firstTs: number;
  lastTs: number;
  /** The latest refusals, oldest first. */
  samples: DoorRefusalSample[];
}

export function requestRoutes(deps: ApiDeps): Hono {
  const app = new Hono();
  const windows = new DoorWindows(deps.store.door);

  app.get('/requests/window', (c) => {
    const limit = intParam(c, 'limit', { fallback: 200, min: 1, max: MAX_REQUESTS_PAGE });
    const at: DoorWindowAt = c.req.query('around') !== undefined
      ? { around: intParam(c, 'around', { fallback: 0, min: 1, max: Number.MAX_SAFE_INTEGER }) }
      : c.req.query('end') === '1' ? { end: true } : { offset: intParam(c, 'offset', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER }) };
    const { rev } = deps.store.door.heads();
    const answer = windows.window(filterParam(c), c.req.query('filter') ?? '', at, limit);
    const page: RequestsWindowPage = { offset: answer.offset, requests: answer.records, total: answer.total, complete: answer.complete, rev };
    if (answer.position !== undefined) page.position = answer.position;
    return c.json(page);
  });

  app.get('/requests', (c) => {
    const after = intParam(c, 'after', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
    const limit = intParam(c, 'limit', { fallback: 500, min: 1, max: MAX_REQUESTS_PAGE });
    const filter = filterParam(c);
    const { id: head, rev } = deps.store.door.heads();
    const page = deps.store.door.page(filter, after, limit);
    return c.json<RequestsPage>({ head, rev, ...page });
  });

  app.get('/requests/refused', (c) => {
    const limit = intParam(c, 'limit', { fallback: 200, min: 1, max: MAX_REQUESTS_PAGE });
    const refusals: RefusalSummary[] = deps.store.door.refused(limit).map((r) => ({
      requestId: r.id,
      ...(r.host !== undefined ? { host: r.host } : {}),
      ...(r.refusals?.origin !== undefined ? { origin: r.refusals.origin } : {}),
      reason: r.note ?? '',
      count: r.refusals?.count ?? 1,
      firstTs: r.ts,
      lastTs: r.refusals?.lastTs ?? r.ts,
      samples: r.refusals?.samples ?? [],
    }));
    return c.json({ refusals });
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
