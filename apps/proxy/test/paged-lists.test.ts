// The Connections table and the sessions sidebar of a big capture read their lists by position:
// `GET /api/requests/window` (door records in arrival order, filtered like the table) and
// `GET /api/sessions/window` (sessions, the most recently started first). Each answer is exactly
// that slice of the whole list, with its length, wherever the window sits — the middle of tens
// of thousands of rows included — and live writes move the count. The capture is written through
// the pipeline's own write path in process, as the tap writes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoorRecord, FrameInput, RequestsWindowPage, SessionsWindowPage } from '@mcpscope/protocol';
import { chatgptCall } from '../../../packages/protocol/test/support/hosts.js';
import { apiGet } from './support/api.js';
import { startTestMcpscope } from './support/mcpscope.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';

const RECORDS = 30_000;
const SESSIONS = 12_000;
const PATHS = ['/mcp', '/.well-known/oauth-protected-resource', '/mcp', '/favicon.ico'];
const STATUSES = [200, 401, 202, 404];

let app: Mcpscope;

/** Record `i` of the generated door traffic (its id is the pipeline's next). */
function doorRecord(id: number, i: number): DoorRecord {
  const record: DoorRecord = {
    id,
    rev: 0,
    ts: 1_750_000_000_000 + i,
    method: i % 4 === 1 ? 'GET' : 'POST',
    path: PATHS[i % PATHS.length]!,
    host: '127.0.0.1:7788',
    answer: 'upstream',
    end: 'complete',
    status: STATUSES[i % STATUSES.length]!,
    requestHeaders: { 'user-agent': 'node' },
    responseHeaders: {},
    requestBytes: 10,
    responseBytes: 20,
    peer: { address: '127.0.0.1', connection: i },
    userAgent: 'node',
  };
  // A body only free text finds: one record in 1,000.
  if (i % 1000 === 500) record.responseBody = { text: `{"note":"needle ${i}"}`, size: 20, truncated: false };
  return record;
}

const sessionKey = (s: number) => `churn-${String(s).padStart(6, '0')}`;
/** ChatGPT chats of one conversation, a session each, started before every churned session. */
const CHATS = 40;
const CONVERSATION = 'conv-paged';
const chatKey = (s: number) => `chat-${String(s).padStart(3, '0')}`;

beforeAll(async () => {
  app = await startTestMcpscope();
  const { pipeline } = app;
  for (let i = 0; i < RECORDS; i++) {
    pipeline.doorChanged(doorRecord(pipeline.nextDoorId(), i));
    if (i % 2000 === 1999) pipeline.flush(true);
  }
  for (let s = 0; s < CHATS; s++) {
    for (const [i, step] of chatgptCall(chatKey(s), { hostId: CONVERSATION }).entries()) pipeline.record({ ...step, ts: 1_740_000_000_000 + s * 100 + i } as FrameInput);
  }
  pipeline.flush(true);
  // One initialize per session, a millisecond apart: a host that opens a session per call.
  for (let s = 0; s < SESSIONS; s++) {
    const ts = 1_750_000_000_000 + s;
    const key = sessionKey(s);
    pipeline.record({ ts, sessionKey: key, direction: 'c2s', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `host-${s}`, version: '1' } } }) });
    if (s % 2000 === 1999) pipeline.flush(true);
  }
  pipeline.flush(true);
}, 120_000);
afterAll(() => app?.close());

const requests = (query: string) => apiGet<RequestsWindowPage>(app, `/api/requests/window?${query}`);
const sessions = (query: string) => apiGet<SessionsWindowPage>(app, `/api/sessions/window?${query}`);
/** The conversation a session joined, as the API lists it. */
const conversationOf = async (key: string) => (await sessions(`around=${key}&limit=1`)).sessions[0]!.conversationKey!;
const ids = (page: RequestsWindowPage) => page.requests.map((r) => r.id);
/** Every record's id in arrival order, as the generator wrote them. */
const allIds = (keep: (i: number) => boolean = () => true) => Array.from({ length: RECORDS }, (_, i) => i).filter(keep).map((i) => i + 1);

describe('door records by position', () => {
  it('a window in the middle of 30,000 records is that slice, with the count', async () => {
    const page = await requests('offset=15000&limit=300');
    expect(page).toMatchObject({ offset: 15_000, total: RECORDS, complete: true });
    expect(ids(page)).toEqual(allIds().slice(15_000, 15_300));
  });

  it('the end, and a position past it', async () => {
    const end = await requests('end=1&limit=100');
    expect(end.offset).toBe(RECORDS - 100);
    expect(ids(end)).toEqual(allIds().slice(-100));
    const past = await requests(`offset=${RECORDS + 50}&limit=10`);
    expect(past).toMatchObject({ offset: RECORDS, total: RECORDS, requests: [] });
  });

  it('a filter SQL decides: position and count in the filtered list', async () => {
    const want = allIds((i) => PATHS[i % PATHS.length] === '/mcp' && STATUSES[i % STATUSES.length] === 200);
    const page = await requests(`filter=${encodeURIComponent('http.path:/mcp http.status:200')}&offset=4000&limit=50`);
    expect(page).toMatchObject({ total: want.length, offset: 4000, complete: true });
    expect(ids(page)).toEqual(want.slice(4000, 4050));
    // Read from either end of the list: the start, one short of the end, and the end.
    for (const [query, from] of [['offset=0', 0], [`offset=${want.length - 51}`, want.length - 51], ['end=1', want.length - 50]] as const) {
      const at = await requests(`filter=${encodeURIComponent('http.path:/mcp http.status:200')}&${query}&limit=50`);
      expect(at, query).toMatchObject({ total: want.length, offset: from });
      expect(ids(at), query).toEqual(want.slice(from, from + 50));
    }
  });

  it('free text, collected by a scan: counted to the end, then the window is its slice', async () => {
    const want = allIds((i) => i % 1000 === 500);
    let page = await requests(`filter=needle&offset=0&limit=100`);
    for (let asked = 0; !page.complete && asked < 1000; asked++) page = await requests(`filter=needle&offset=0&limit=100`);
    expect(page).toMatchObject({ complete: true, total: want.length });
    expect(ids(page)).toEqual(want);
    const middle = await requests(`filter=needle&offset=10&limit=5`);
    expect(ids(middle)).toEqual(want.slice(10, 15));
  });

  it('around a record far from both ends: its position, and the window holds it', async () => {
    const page = await requests('around=21234&limit=200');
    expect(page.position).toBe(21_233);
    expect(ids(page)).toContain(21_234);
    expect(ids(page)).toEqual(allIds().slice(page.offset, page.offset + 200));
    const filtered = await requests(`filter=${encodeURIComponent('http.status:404')}&around=21234&limit=20`);
    expect(filtered.position).toBe(-1);
  });

  it('a record written live moves the count and is the new end', async () => {
    const id = app.pipeline.nextDoorId();
    app.pipeline.doorChanged(doorRecord(id, RECORDS));
    app.pipeline.flush(true);
    const end = await requests('end=1&limit=1');
    expect(end.total).toBe(RECORDS + 1);
    expect(ids(end)).toEqual([id]);
  });

  it('retention removed the oldest: the count, the window and a scan start from the oldest kept', async () => {
    const kept = 20_000;
    const newest = ids(await requests('end=1&limit=1'))[0]!;
    await requests('filter=needle&offset=0&limit=1');
    app.store.door.trim(kept, undefined);
    const first = await requests('offset=0&limit=3');
    expect(first).toMatchObject({ total: kept, offset: 0 });
    expect(ids(first)).toEqual([newest - kept + 1, newest - kept + 2, newest - kept + 3]);
    let found = await requests('filter=needle&offset=0&limit=100');
    for (let asked = 0; !found.complete && asked < 1000; asked++) found = await requests('filter=needle&offset=0&limit=100');
    expect(ids(found)).toEqual(allIds((i) => i % 1000 === 500).filter((id) => id > newest - kept));
  });
});

describe('sessions by position', () => {
  it('the most recently started first: a window in the middle, with the count', async () => {
    const page = await sessions('offset=6000&limit=200');
    expect(page).toMatchObject({ offset: 6000, total: SESSIONS + CHATS });
    expect(page.sessions.map((s) => s.sessionKey)).toEqual(Array.from({ length: 200 }, (_, i) => sessionKey(SESSIONS - 1 - 6000 - i)));
  });

  it('around a session: its position, and the window holds it', async () => {
    const page = await sessions(`around=${sessionKey(1234)}&limit=100`);
    expect(page.position).toBe(SESSIONS - 1 - 1234);
    expect(page.sessions.map((s) => s.sessionKey)).toContain(sessionKey(1234));
    expect((await sessions('around=no-such-session&limit=10')).position).toBe(-1);
  });

  it("a conversation's sessions: its own list, positions and count", async () => {
    const key = await conversationOf(chatKey(0));
    const chats = Array.from({ length: CHATS }, (_, i) => chatKey(CHATS - 1 - i));
    const page = await sessions(`conversation=${encodeURIComponent(key)}&offset=10&limit=5`);
    expect(page).toMatchObject({ offset: 10, total: CHATS });
    expect(page.sessions.map((s) => s.sessionKey)).toEqual(chats.slice(10, 15));
    const around = await sessions(`conversation=${encodeURIComponent(key)}&around=${chatKey(7)}&limit=1`);
    expect(around.position).toBe(CHATS - 1 - 7);
    expect(around.sessions.map((s) => s.sessionKey)).toEqual([chatKey(7)]);
    // A session of another list is not in this one.
    expect((await sessions(`conversation=${encodeURIComponent(key)}&around=${sessionKey(5)}&limit=1`)).position).toBe(-1);
    // The conversation's own order: the oldest first.
    const oldest = await sessions(`conversation=${encodeURIComponent(key)}&oldest=1&offset=0&limit=3`);
    expect(oldest.sessions.map((s) => s.sessionKey)).toEqual([chatKey(0), chatKey(1), chatKey(2)]);
    expect((await sessions(`conversation=${encodeURIComponent(key)}&oldest=1&around=${chatKey(7)}&limit=1`)).position).toBe(7);
  });
});
