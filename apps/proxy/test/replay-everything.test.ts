// Replay against server-everything (the reference server, SDK v1, streamableHttp): a fresh session
// presents the captured client's capabilities, and a server request during a replay (elicitation)
// waits for the dashboard user instead of hanging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ExchangeDetail, ReplayInput, ReplayResponse } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api } from './replay-helpers.js';
import { startEverything, type Everything } from './support/everything.js';

let everything: Everything;
let app: Mcpscope;
let client: Client;

beforeAll(async () => {
  everything = await startEverything('streamableHttp');
  app = await startTestMcpscope({ target: everything.url });
  client = new Client({ name: 'e2e-chat', version: '2.1.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
  await everything?.close();
});

async function failedSum(): Promise<string> {
  const result = await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 'two' } }).catch((err: Error) => err);
  expect(result instanceof Error || (result as { isError?: boolean }).isError).toBeTruthy();
  await settled(app);
  const ex = app.store.exchanges(50).find((e) => e.target === 'get-sum' && e.status !== 'ok');
  expect(ex).toBeDefined();
  return ex!.id;
}

const sum = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get-sum', arguments: { a: 1, b: 2 } } };
const textOf = (ex: ExchangeDetail) => JSON.stringify(JSON.parse(ex.frames.find((f) => f.seq === ex.exchange.responseSeq)!.raw).result.content);

describe('replay against server-everything', () => {
  it('fixes a failed get-sum in session mode', async () => {
    const originalId = await failedSum();
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: sum });
    expect(status).toBe(200);
    expect(body.exchange).toMatchObject({ status: 'ok', replayOf: originalId });
    expect(textOf((await api<ExchangeDetail>(app, `/api/exchanges/${body.exchange.id}`)).body)).toContain('The sum of 1 and 2 is 3.');
  });

  it('opens a fresh session as the captured client, then replays into it', async () => {
    const originalId = await failedSum();
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'fresh', message: sum });
    expect(status).toBe(200);
    expect(body.exchange).toMatchObject({ status: 'ok', replayOf: originalId });
    expect(body.sessionKey).not.toBe(app.store.exchange(originalId)!.sessionKey);
    await settled(app);
    const fresh = app.store.sessions().find((s) => s.sessionKey === body.sessionKey);
    expect(fresh).toMatchObject({ clientInfo: { name: 'e2e-chat', version: '2.1.0' }, clientCapabilities: { elicitation: {} }, protocolVersion: '2025-11-25' });
    const init = app.store.exchanges(100).find((e) => e.sessionKey === body.sessionKey && e.method === 'initialize');
    expect(init).toMatchObject({ status: 'ok', rpcId: expect.stringMatching(/^mcpscope-replay-/) });
  });

  it('surfaces an elicitation sent during a replay, and the user\'s decline reaches the server', async () => {
    const originalId = await failedSum();
    const elicit = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'trigger-elicitation-request', arguments: {} } };
    const replay = api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'fresh', message: elicit });
    let inputs: ReplayInput[] = [];
    for (let i = 0; i < 200 && inputs.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      inputs = (await api<{ inputs: ReplayInput[] }>(app, '/api/replay/inputs')).body.inputs;
    }
    expect(inputs).toEqual([expect.objectContaining({ method: 'elicitation/create', params: expect.objectContaining({ message: expect.any(String) }) })]);
    expect((await api(app, `/api/replay/inputs/${inputs[0]!.key}`, { action: 'decline' })).status).toBe(204);
    const { body } = await replay;
    expect(body.exchange).toMatchObject({ status: 'ok' });
    expect(textOf((await api<ExchangeDetail>(app, `/api/exchanges/${body.exchange.id}`)).body)).toMatch(/decline/i);
    expect((await api<{ inputs: ReplayInput[] }>(app, '/api/replay/inputs')).body.inputs).toEqual([]);
    // Answering twice is an error, not a second response on the wire.
    expect((await api(app, `/api/replay/inputs/${inputs[0]!.key}`, { action: 'decline' })).status).toBe(404);
  });
});
