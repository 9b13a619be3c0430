// The dashboard API as DESIGN.md's contract names it, over real traffic from the SDK client:
// summaries in lists, bodies on demand, filters evaluated on the server, and every bad parameter
// answered with a 400 that says what is wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ApiError, ExchangeDetail, ExchangesPage, ExchangeWindowPage, FramesPage, SessionsPage } from '@mcpscope/protocol';
import { FRAME_RAW_LIMIT } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';

let app: Mcpscope;
let client: Client;
const BIG = 'x'.repeat(FRAME_RAW_LIMIT + 5000);

beforeAll(async () => {
  app = await startTestMcpscope();
  client = await connectClient(app.mcpUrl);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, recipient: 'Ada' } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 5 } });
  await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 2 } }, undefined, { onprogress: () => {} });
  await client.callTool({ name: 'wrap_gift', arguments: { gift: BIG, steps: 1 } }).catch(() => {});
  await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: 'not json at all' });
  await settled(app);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

async function get<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T; res: Response }> {
  const res = await fetch(app.dashboardUrl + path, { ...init, headers: { authorization: `Bearer ${app.token}`, ...init.headers } });
  const type = res.headers.get('content-type') ?? '';
  const body = (type.includes('json') ? await res.json() : await res.text()) as T;
  return { status: res.status, body, res };
}
const q = encodeURIComponent;

describe('GET /api/exchanges', () => {
  it('filters on the server with the filter language', async () => {
    const { body } = await get<ExchangesPage>(`/api/exchanges?filter=${q('tool:suggest_gifts')}`);
    expect(body.exchanges.map((e) => e.target)).toEqual(['suggest_gifts', 'suggest_gifts']);
    expect(body.exchanges.map((e) => e.status)).toEqual(['business_error', 'ok']); // newest first
    const errors = await get<ExchangesPage>(`/api/exchanges?filter=${q('status:err')}`);
    const statuses = new Set(errors.body.exchanges.map((e) => e.status));
    expect(statuses).toContain('business_error');
    expect(statuses).toContain('invalid');
    for (const s of statuses) expect(['protocol_error', 'business_error', 'transport_error', 'invalid']).toContain(s);
    const text = await get<ExchangesPage>(`/api/exchanges?filter=${q('"Ada" method:tools/*')}`);
    expect(text.body.exchanges).toHaveLength(1);
    expect(text.body.exchanges[0]).toMatchObject({ target: 'suggest_gifts', status: 'ok' });
    const rest = await get<ExchangesPage>(`/api/exchanges?filter=${q('!method:tools/* !kind:notification !kind:invalid')}`);
    expect(rest.body.exchanges.map((e) => e.method)).toContain('initialize');
    expect(rest.body.exchanges.every((e) => !e.method?.startsWith('tools/') && e.kind === 'request')).toBe(true);
    expect(body.retention).toEqual({ removedFrames: 0, oldestSeq: 0 });
  });

  it('pages newest first with nextBefore, without gaps or overlaps', async () => {
    const all = (await get<ExchangesPage>('/api/exchanges?limit=1000')).body.exchanges.map((e) => e.id);
    expect(all.length).toBeGreaterThan(4);
    const seen: string[] = [];
    let before: number | undefined;
    for (let i = 0; i < 50; i++) {
      const page: ExchangesPage = (await get<ExchangesPage>(`/api/exchanges?limit=2${before === undefined ? '' : `&before=${before}`}`)).body;
      seen.push(...page.exchanges.map((e) => e.id));
      if (page.nextBefore === undefined) break;
      before = page.nextBefore;
    }
    expect(seen).toEqual(all);
  });

  it.each([
    ['limit=abc', 'bad_param', /"limit" must be an integer/],
    ['limit=0', 'bad_param', /"limit"/],
    ['limit=99999999', 'bad_param', /"limit"/],
    ['before=soon', 'bad_param', /"before" must be a number/],
    [`filter=${q('method:tools/call (')}`, 'bad_filter', /filter:/],
    [`filter=${q('colour:red')}`, 'bad_filter', /method/],
  ])('answers %s with 400 %s', async (query, code, message) => {
    const { status, body } = await get<ApiError>(`/api/exchanges?${query}`);
    expect(status).toBe(400);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toMatch(message);
    if (code === 'bad_filter') expect(body.error.position).toEqual(expect.any(Number));
  });
});

describe('GET /api/exchanges/window', () => {
  it('reads the filtered list by position, oldest first, with its length', async () => {
    const newestFirst = (await get<ExchangesPage>('/api/exchanges?limit=1000')).body.exchanges.map((e) => e.id);
    const all = [...newestFirst].reverse();
    const whole = (await get<ExchangeWindowPage>('/api/exchanges/window?limit=1000')).body;
    expect(whole).toMatchObject({ offset: 0, total: all.length, complete: true });
    expect(whole.exchanges.map((e) => e.id)).toEqual(all);
    const middle = (await get<ExchangeWindowPage>('/api/exchanges/window?offset=2&limit=3')).body;
    expect(middle.exchanges.map((e) => e.id)).toEqual(all.slice(2, 5));
    const end = (await get<ExchangeWindowPage>('/api/exchanges/window?end=1&limit=2')).body;
    expect(end).toMatchObject({ offset: all.length - 2, total: all.length });
    expect(end.exchanges.map((e) => e.id)).toEqual(all.slice(-2));
    const around = (await get<ExchangeWindowPage>(`/api/exchanges/window?around=${q(all[3]!)}&limit=3`)).body;
    expect(around.position).toBe(3);
    expect(around.exchanges.map((e) => e.id)).toEqual(all.slice(2, 5));
  });

  it('counts under a filter, free text included, and says where a row outside it would be', async () => {
    const calls = (await get<ExchangeWindowPage>(`/api/exchanges/window?filter=${q('tool:suggest_gifts')}`)).body;
    expect(calls).toMatchObject({ total: 2, complete: true });
    expect(calls.exchanges.map((e) => e.status)).toEqual(['ok', 'business_error']); // oldest first
    const text = (await get<ExchangeWindowPage>(`/api/exchanges/window?filter=${q('"Ada" method:tools/*')}`)).body;
    expect(text.exchanges).toHaveLength(1);
    expect(text).toMatchObject({ total: 1, offset: 0 });
    // Rows from a sort key on only (the dashboard's "Clear"): the second call and what followed.
    const from = Number(calls.exchanges[1]!.id);
    const cleared = (await get<ExchangeWindowPage>(`/api/exchanges/window?filter=${q('tool:suggest_gifts')}&from=${from}`)).body;
    expect(cleared.exchanges.map((e) => e.id)).toEqual([calls.exchanges[1]!.id]);
    const outside = (await get<ExchangeWindowPage>(`/api/exchanges/window?filter=${q('tool:suggest_gifts')}&around=${q(calls.exchanges[0]!.id)}&from=${from}`)).body;
    expect(outside.position).toBe(-1);
  });

  it.each([
    ['limit=0', /"limit"/],
    ['limit=5001', /"limit"/],
    ['offset=-1', /"offset"/],
    ['from=soon', /"from" must be a number/],
  ])('answers %s with 400', async (query, message) => {
    const { status, body } = await get<ApiError>(`/api/exchanges/window?${query}`);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(message);
  });
});

describe('GET /api/exchanges/:id', () => {
  it('returns the exchange with its frames and diagnostics', async () => {
    const [junk] = (await get<ExchangesPage>(`/api/exchanges?filter=${q('kind:invalid')}`)).body.exchanges;
    const { body } = await get<ExchangeDetail>(`/api/exchanges/${junk!.id}`);
    // The junk, then the server's parse error that answers it on the same connection.
    expect(body.frames.map((f) => f.raw)).toEqual(['not json at all', expect.stringContaining('"code":-32700')]);
    expect(body.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'invalid-message', severity: 'error', frameSeq: junk!.frameSeqs[0] })]));
  });

  it('answers an unknown id with 404 and an error code', async () => {
    const { status, body } = await get<ApiError>('/api/exchanges/999999');
    expect(status).toBe(404);
    expect(body.error.code).toBe('not_found');
  });
});

describe('GET /api/frames', () => {
  it('pages every frame in capture order, cutting big bodies and stating their size', async () => {
    const first = (await get<FramesPage>('/api/frames?after=0&limit=3')).body;
    expect(first.frames.map((f) => f.seq)).toEqual([1, 2, 3]);
    expect(first.nextAfter).toBe(3);
    const rest = (await get<FramesPage>('/api/frames?after=3&limit=5000')).body;
    expect(rest.nextAfter).toBeUndefined();
    expect(rest.frames[rest.frames.length - 1]!.seq).toBe(rest.head);
    const big = rest.frames.find((f) => f.truncated)!;
    expect(big.raw.length).toBe(FRAME_RAW_LIMIT);
    expect(big.size).toBeGreaterThan(BIG.length);
  });

  it('filters frames by the exchanges they belong to', async () => {
    const { body } = await get<FramesPage>(`/api/frames?filter=${q('tool:wrap_gift mug')}`);
    // request, 2 progress notifications, response
    expect(body.frames.map((f) => f.direction)).toEqual(['c2s', 's2c', 's2c', 's2c']);
    expect(JSON.parse(body.frames[0]!.raw).params.arguments.gift).toBe('mug');
  });

  it('serves one frame whole, as a download, or in pieces', async () => {
    const page = (await get<FramesPage>('/api/frames?limit=5000')).body;
    const big = page.frames.find((f) => f.truncated)!;
    const whole = await get<string>(`/api/frames/${big.seq}/raw?download=1`);
    expect(whole.status).toBe(200);
    expect(whole.res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(whole.res.headers.get('content-disposition')).toContain(`mcpscope-frame-${big.seq}.txt`);
    expect(Number(whole.res.headers.get('x-mcpscope-size'))).toBe(Buffer.byteLength(whole.body));
    expect(JSON.parse(whole.body).params.arguments.gift).toBe(BIG);
    const piece = await get<string>(`/api/frames/${big.seq}/raw`, { headers: { range: 'bytes=0-9' } });
    expect(piece.status).toBe(206);
    expect(piece.body).toBe(whole.body.slice(0, 10));
    expect(piece.res.headers.get('content-range')).toBe(`bytes 0-9/${Buffer.byteLength(whole.body)}`);
    const tail = await get<string>(`/api/frames/${big.seq}/raw`, { headers: { range: 'bytes=-5' } });
    expect(tail.body).toBe(whole.body.slice(-5));
    expect((await get(`/api/frames/${big.seq}/raw`, { headers: { range: 'bytes=99999999-' } })).status).toBe(416);
    expect((await get<ApiError>('/api/frames/999999/raw')).body.error.code).toBe('not_found');
    expect((await get<ApiError>('/api/frames/abc/raw')).status).toBe(400);
  });
});

describe('the rest of /api', () => {
  it('lists sessions, and answers unknown API paths with a JSON 404', async () => {
    const { body } = await get<SessionsPage>('/api/sessions');
    expect(body.sessions.some((s) => s.clientInfo?.name === 'mcpscope-test')).toBe(true);
    const missing = await get<ApiError>('/api/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });
});
