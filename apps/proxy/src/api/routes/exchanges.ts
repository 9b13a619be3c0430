/**
 * Exchanges: `GET /api/exchanges?filter=EXPR&limit=N&before=SORTKEY` (summaries, newest first,
 * filtered on the server), `GET /api/exchanges/window?filter=EXPR&from=SORTKEY&limit=N` with one
 * of `offset=N`, `end=1` or `around=ID` (the filtered list in capture order, read by position,
 * with its length: capture/capture-window.ts) and `GET /api/exchanges/:id` (the summary, every
 * frame with bodies up to DETAIL_RAW_LIMIT, the diagnostics, and the verdict when it did not end
 * ok).
 */
import { Hono } from 'hono';
import { DETAIL_RAW_LIMIT, exchangeVerdict, type ExchangeDetail, type ExchangesPage, type ExchangeWindowPage } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import { readRetentionState } from '../../capture/retention.js';
import { ExchangeWindows, type WindowAt } from '../../capture/capture-window.js';
import type { ApiDeps } from '../api-deps.js';
import { filterParam, intParam, numberParam } from '../params.js';

export const MAX_EXCHANGES_PAGE = 200_000;
/** Largest window: a few screens of rows and their margin. */
export const MAX_WINDOW = 5000;

export function exchangeRoutes(deps: ApiDeps): Hono {
  const app = new Hono();
  const windows = new ExchangeWindows(deps.store);

  app.get('/exchanges/window', (c) => {
    const limit = intParam(c, 'limit', { fallback: 200, min: 1, max: MAX_WINDOW });
    const from = numberParam(c, 'from');
    const around = c.req.query('around');
    const at: WindowAt = around ? { around } : c.req.query('end') === '1' ? { end: true } : { offset: intParam(c, 'offset', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER }) };
    const head = deps.store.head();
    const answer = windows.window({ filter: filterParam(c), text: c.req.query('filter') ?? '', ...(from !== undefined ? { since: from } : {}) }, at, limit);
    const envelope: Omit<ExchangeWindowPage, 'exchanges'> = { offset: answer.offset, total: answer.total, complete: answer.complete, head };
    if (answer.position !== undefined) envelope.position = answer.position;
    return c.body(`{"exchanges":[${answer.summaries.join(',')}],${JSON.stringify(envelope).slice(1)}`, 200, { 'content-type': 'application/json' });
  });

  app.get('/exchanges', (c) => {
    const limit = intParam(c, 'limit', { fallback: 1000, min: 1, max: MAX_EXCHANGES_PAGE });
    const before = numberParam(c, 'before');
    const filter = filterParam(c);
    const head = deps.store.head();
    const page = deps.query.exchangesJson(filter, limit, before);
    // Summaries are spliced in as stored (already JSON): a 100,000-row page is not parsed and
    // re-serialized. The envelope is typed; only the list is text.
    const envelope: Omit<ExchangesPage, 'exchanges'> = { head, retention: readRetentionState(deps.store) };
    if (page.nextBefore !== undefined) envelope.nextBefore = page.nextBefore;
    const json = JSON.stringify(envelope);
    return c.body(`{"exchanges":[${page.summaries.join(',')}],${json.slice(1)}`, 200, { 'content-type': 'application/json' });
  });

  app.get('/exchanges/:id', (c) => {
    const id = c.req.param('id');
    const exchange = deps.store.exchange(id);
    if (!exchange) throw new InspectorError('not_found', `No exchange "${id}" (it may have been removed by retention).`);
    const frames = deps.store.framesBySeq(exchange.frameSeqs, DETAIL_RAW_LIMIT);
    const diagnostics = deps.store.diagnosticsFor(exchange);
    const detail: ExchangeDetail = { exchange, frames, diagnostics };
    const verdict = exchangeVerdict({ exchange, diagnostics, http: new Map(frames.map((f) => [f.seq, f.http])) });
    if (verdict) detail.verdict = verdict;
    return c.json(detail);
  });

  return app;
}
