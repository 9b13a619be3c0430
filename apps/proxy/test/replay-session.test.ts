// Session replays: the used-by story at API level. ChatGPT's call failed; the user fixes the
// arguments and sends it again into the same live session, with the same credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ExchangeDetail, ReplayFailure, ReplayLinks, ReplayResponse } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api, watchingRequest, type SeenCall } from './replay-helpers.js';

const SECRET = 'Bearer sk-live-0123456789abcdef';
let app: Mcpscope;
let calls: SeenCall[];
let client: Client;
let transport: StreamableHTTPClientTransport;

beforeAll(async () => {
  const watched = watchingRequest();
  calls = watched.calls;
  app = await startTestMcpscope({ request: watched.request });
  client = new Client({ name: 'openai-mcp', version: '1.0.0' });
  transport = new StreamableHTTPClientTransport(new URL(app.mcpUrl), { requestInit: { headers: { 'user-agent': 'openai-mcp/1.0.0', authorization: SECRET } } });
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

async function failedCall(): Promise<string> {
  await expect(client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'fifty' } })).rejects.toMatchObject({ code: -32602 });
  await settled(app);
  const failed = app.store.exchanges(50).find((e) => e.method === 'tools/call' && e.status === 'protocol_error');
  expect(failed).toBeDefined();
  return failed!.id;
}

const fixed = (id: number | string = 99) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50 } },
});

describe('POST /api/replay in session mode', () => {
  it('sends the edited request into the live session and captures a linked, successful exchange', async () => {
    const originalId = await failedCall();
    const original = app.store.exchange(originalId)!;
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: fixed() });
    expect(status).toBe(200);
    expect(body).toMatchObject({ mode: 'session', replayOf: originalId, sessionKey: original.sessionKey, sentId: expect.stringMatching(/^mcpscope-replay-\d+$/) });
    expect(body.exchange).toMatchObject({ status: 'ok', method: 'tools/call', target: 'suggest_gifts', sessionKey: original.sessionKey, rpcId: body.sentId, replayOf: originalId });

    const detail = (await api<ExchangeDetail>(app, `/api/exchanges/${body.exchange.id}`)).body;
    expect(detail.frames.map((f) => [f.direction, f.transport])).toEqual([['c2s', 'replay'], ['s2c', 'replay']]);
    expect(JSON.parse(detail.frames[1]!.raw).result.structuredContent.gifts.length).toBeGreaterThan(0);
    expect(detail.frames[0]!.http?.requestHeaders).toMatchObject({ 'mcp-session-id': original.sessionKey, 'mcp-protocol-version': '2025-11-25', 'user-agent': 'openai-mcp/1.0.0' });

    // Linked both ways.
    expect((await api<ReplayLinks>(app, `/api/replay/links/${originalId}`)).body).toEqual({ replays: [body.exchange.id] });
    expect((await api<ReplayLinks>(app, `/api/replay/links/${body.exchange.id}`)).body).toEqual({ replayOf: originalId, replays: [] });
  });

  it('presents the session\'s real credentials upstream but never stores them', async () => {
    const originalId = await failedCall();
    const before = calls.length;
    await api(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: fixed() });
    const sent = calls.slice(before).find((c) => c.body?.includes('mcpscope-replay-'));
    expect(sent?.headers.authorization).toBe(SECRET);
    await settled(app);
    const stored = app.store.db.prepare("SELECT COUNT(*) AS n FROM frames WHERE raw LIKE '%sk-live%' OR http LIKE '%sk-live%'").get() as { n: number };
    expect(stored.n).toBe(0);
    // Headers are stored once, in templates (templates.ts).
    expect(app.store.db.prepare("SELECT COUNT(*) AS n FROM templates WHERE text LIKE '%sk-live%'").get()).toEqual({ n: 0 });
  });

  it('a replay can itself be edited and replayed, and each keeps its own link', async () => {
    const originalId = await failedCall();
    const first = (await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: JSON.stringify(fixed()) })).body;
    const second = (await api<ReplayResponse>(app, '/api/replay', { exchangeId: first.exchange.id, mode: 'session', message: { ...fixed(), params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 5 } } } })).body;
    expect(second.exchange).toMatchObject({ status: 'business_error', replayOf: first.exchange.id });
    expect(second.sentId).not.toBe(first.sentId);
  });

  it('never reuses the id of a request the client still has in flight', async () => {
    // wrap_gift takes ~600 ms: replay a request carrying the very same id while it runs.
    const pending = client.callTool({ name: 'wrap_gift', arguments: { gift: 'scarf', steps: 4 } });
    let inFlight: number | undefined;
    for (let i = 0; i < 100 && inFlight === undefined; i++) {
      await new Promise((r) => setTimeout(r, 10));
      app.pipeline.flush();
      inFlight = app.store.exchanges(20).find((e) => e.method === 'tools/call' && e.target === 'wrap_gift' && e.status === 'pending')?.rpcId as number | undefined;
    }
    expect(inFlight).toEqual(expect.any(Number));
    const replayed = await api<ReplayResponse>(app, '/api/replay', { exchangeId: (await failedCall()), mode: 'session', message: fixed(inFlight) });
    expect(replayed.body.exchange).toMatchObject({ status: 'ok', target: 'suggest_gifts' });
    expect(replayed.body.sentId).not.toEqual(inFlight);
    // The real client still gets its own answer, untouched by the replay.
    expect(await pending).toMatchObject({ content: [{ type: 'text', text: 'scarf is wrapped with a bow.' }] });
    await settled(app);
    const clientCall = app.store.exchanges(50).find((e) => e.rpcId === inFlight && e.target === 'wrap_gift');
    expect(clientCall).toMatchObject({ status: 'ok', diagnostics: 0 });
  });

  it('says the session expired, captures one exchange with the server\'s own answer, and offers fresh, which works', async () => {
    const originalId = await failedCall();
    await transport.terminateSession(); // DELETE: the server forgets the session
    const expired = await api<ReplayFailure>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: fixed() });
    expect(expired.status).toBe(409);
    expect(expired.body).toMatchObject({ error: { code: 'session_expired', message: expect.stringContaining('expired') }, retryWith: 'fresh' });
    // The server's own words (its id-null -32001), not a transport failure of mcpscope's making; one row.
    expect(expired.body.exchange).toMatchObject({ status: 'protocol_error', errorCode: -32001, errorMessage: expect.stringContaining('Session not found'), replayOf: originalId });
    expect(app.store.exchanges(50).filter((e) => e.replayOf === originalId || e.status === 'transport_error')).toHaveLength(1);

    const fresh = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'fresh', message: fixed() });
    expect(fresh.status).toBe(200);
    expect(fresh.body.exchange).toMatchObject({ status: 'ok', replayOf: originalId });
    expect(fresh.body.sessionKey).not.toBe(app.store.exchange(originalId)!.sessionKey);
  });
});
