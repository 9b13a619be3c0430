// Replay for a --stdio server: the live session belongs to the bridge's child, so a session
// replay says so and offers fresh; a fresh replay starts mcpscope's own copy of the server,
// initializes it as the captured client, and captures the answer like any other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeDetail, ReplayFailure, ReplayResponse } from '@mcpscope/protocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { EVERYTHING_BIN } from './support/everything.js';
import { api } from './replay-helpers.js';

let app: Mcpscope;
let client: Client;
let originalId: string;

beforeAll(async () => {
  app = await startTestMcpscope({ stdio: `"${process.execPath}" ${EVERYTHING_BIN} stdio` });
  client = await connectClient(app.mcpUrl);
  await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 'two' } }).catch(() => undefined);
  await settled(app);
  originalId = app.store.exchanges(20).find((e) => e.target === 'get-sum')!.id;
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

const sum = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'get-sum', arguments: { a: 2, b: 3 } } };

describe('replay to a stdio server', () => {
  it('refuses the bridge\'s own session with a clear message and offers fresh', async () => {
    const { status, body } = await api<ReplayFailure>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: sum });
    expect(status).toBe(409);
    expect(body).toMatchObject({ error: { code: 'no_session', message: expect.stringContaining('fresh') }, retryWith: 'fresh' });
  });

  it('replays in a fresh copy of the server, captured and linked', async () => {
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'fresh', message: sum });
    expect(status).toBe(200);
    expect(body.exchange).toMatchObject({ status: 'ok', replayOf: originalId, target: 'get-sum' });
    const detail = (await api<ExchangeDetail>(app, `/api/exchanges/${body.exchange.id}`)).body;
    expect(detail.frames.map((f) => [f.direction, f.transport])).toEqual([['c2s', 'replay'], ['s2c', 'replay']]);
    expect(detail.frames[1]!.raw).toContain('The sum of 2 and 3 is 5.');
    await settled(app);
    expect(app.store.sessions().find((s) => s.sessionKey === body.sessionKey)).toMatchObject({ clientInfo: { name: 'mcpscope-test' } });
    // The replay's own session can take a session replay: it goes to mcpscope's child.
    const again = await api<ReplayResponse>(app, '/api/replay', { exchangeId: body.exchange.id, mode: 'session', message: { ...sum, params: { name: 'get-sum', arguments: { a: 4, b: 4 } } } });
    expect(again.body.exchange).toMatchObject({ status: 'ok', replayOf: body.exchange.id });
  });
});
