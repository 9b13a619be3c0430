// Replay is not an open relay, and every way it can fail says so clearly: a refused destination,
// malformed input, an unreachable upstream (captured as a transport_error), a server request
// nobody answers (declined on the user's behalf).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, RequestMessage, ReplayFailure, ReplayResponse } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { ReplayInputs } from '../src/replay/replay-inputs.js';
import { startDemoServer } from '../src/demo/demo-http.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api, watchingRequest, type SeenCall } from './replay-helpers.js';
import { freePort } from './support/free-port.js';

const SECRET = 'Bearer sk-test-secret-42';
let app: Mcpscope;
let calls: SeenCall[];
let originalId: string;

beforeAll(async () => {
  const watched = watchingRequest();
  calls = watched.calls;
  app = await startTestMcpscope({ request: watched.request });
  const client = await connectClient(app.mcpUrl, { headers: { authorization: SECRET } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 3 } });
  await client.close();
  await settled(app);
  originalId = app.store.exchanges(20).find((e) => e.method === 'tools/call')!.id;
});
afterAll(() => app.close());

const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 100 } } };

describe('POST /api/replay refuses what it must', () => {
  it('needs the dashboard token', async () => {
    expect((await api(app, '/api/replay', { exchangeId: originalId, mode: 'session', message }, 'wrong')).status).toBe(401);
  });

  it.each(['url', 'target', 'host', 'headers', 'upstream'])('refuses a body that names a destination ("%s") and sends nothing', async (key) => {
    const before = calls.length;
    const { status, body } = await api<ApiError>(app, '/api/replay', { exchangeId: originalId, mode: 'fresh', message, [key]: 'http://127.0.0.1:1/evil' });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'not_a_relay', message: expect.stringContaining('--target') });
    expect(calls.length).toBe(before);
  });

  it.each([
    ['not JSON', '{"jsonrpc": "2.0",', 'invalid_message'],
    ['a batch', [message, message], 'invalid_message'],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }, 'invalid_message'],
    ['missing', undefined, 'invalid_message'],
  ])('rejects a message that is %s', async (_what, bad, code) => {
    const { status, body } = await api<ApiError>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: bad });
    expect(status).toBe(400);
    expect(body.error.code).toBe(code);
  });

  it('answers 404 for an unknown exchange and 409 for a session replay with no session', async () => {
    expect((await api<ApiError>(app, '/api/replay', { exchangeId: '999999', mode: 'session', message })).body.error.code).toBe('not_found');
    const none = await api<ApiError>(app, '/api/replay', { mode: 'session', message });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('no_session');
  });

  it('composes from scratch in fresh mode, without any original', async () => {
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { mode: 'fresh', message });
    expect(status).toBe(200);
    expect(body.exchange).toMatchObject({ status: 'ok' });
    expect(body.replayOf).toBeUndefined();
  });
});

describe('copy as curl', () => {
  it('has the right Accept, session and version headers, with the secret as a placeholder', async () => {
    const { body } = await api<{ command: string }>(app, '/api/replay/curl', { exchangeId: originalId, message });
    const sessionKey = app.store.exchange(originalId)!.sessionKey;
    expect(body.command).toMatch(/^curl -N 'http:\/\/127\.0\.0\.1:\d+\/mcp'/);
    expect(body.command).toContain(`-H 'accept: application/json, text/event-stream'`);
    expect(body.command).toContain(`-H 'mcp-session-id: ${sessionKey}'`);
    expect(body.command).toContain(`-H 'mcp-protocol-version: 2025-11-25'`);
    expect(body.command).toContain(`-H 'authorization: '"\${MCP_AUTHORIZATION}"`);
    expect(body.command).not.toContain('sk-test-secret');
    expect(body.command).toContain(`--data-raw '${JSON.stringify(message)}'`);
  });

  it('includes the real secret only when asked', async () => {
    const { body } = await api<{ command: string }>(app, '/api/replay/curl', { exchangeId: originalId, message, secrets: true });
    expect(body.command).toContain(`-H 'authorization: ${SECRET}'`);
  });
});

describe('server requests during a replay', () => {
  it('are declined on the user\'s behalf when nobody answers in time', async () => {
    const inputs = new ReplayInputs(20);
    const request: RequestMessage = { kind: 'request', id: 3, method: 'sampling/createMessage', params: {} };
    const sent = await new Promise<unknown>((resolve) => inputs.add('s', request, async (response) => resolve(response)));
    expect(sent).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -1, message: expect.stringContaining('Declined') } });
    expect(inputs.list()).toEqual([]);
  });
});

describe('upstream down', () => {
  let down: Mcpscope;
  let failedId: string;
  beforeAll(async () => {
    down = await startTestMcpscope({ target: `http://127.0.0.1:${await freePort()}/mcp` });
    await fetch(down.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'gone-1' }, body: JSON.stringify(message) });
    await settled(down);
    failedId = down.store.exchanges(5)[0]!.id;
  });
  afterAll(() => down.close());

  it.each(['session', 'fresh'] as const)('answers 502 with a clear message and a captured transport_error (%s)', async (mode) => {
    const { status, body } = await api<ReplayFailure>(down, '/api/replay', { exchangeId: failedId, mode, message });
    expect(status).toBe(502);
    expect(body.error).toMatchObject({ code: 'upstream_unreachable', message: expect.stringContaining('ECONNREFUSED') });
    // In fresh mode the failure is mcpscope's own initialize, which is not a replay of anything.
    expect(body.exchange).toMatchObject({ status: 'transport_error', method: mode === 'session' ? 'tools/call' : 'initialize', errorMessage: expect.stringContaining('ECONNREFUSED') });
    if (mode === 'session') expect(body.exchange!.replayOf).toBe(failedId);
  });
});

describe('credentials mcpscope no longer holds', () => {
  it('after a restart, a session replay goes without them and says so', async () => {
    const demo = await startDemoServer();
    const dbFile = join(mkdtempSync(join(tmpdir(), 'mcpscope-replay-')), 'capture.db');
    let first: Mcpscope | undefined = await startTestMcpscope({ target: demo.url, db: dbFile });
    let second: Mcpscope | undefined;
    try {
      const client = await connectClient(first.mcpUrl, { headers: { authorization: SECRET } });
      await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 3 } });
      await settled(first);
      const id = first.store.exchanges(20).find((e) => e.method === 'tools/call')!.id;
      await first.close();
      first = undefined;
      const watched = watchingRequest();
      second = await startTestMcpscope({ target: demo.url, db: dbFile, request: watched.request });
      const { status, body } = await api<ReplayResponse>(second, '/api/replay', { exchangeId: id, mode: 'session', message });
      expect(status).toBe(200);
      expect(body.warnings).toEqual([expect.stringContaining('authorization')]);
      expect(watched.calls.at(-1)!.headers.authorization).toBeUndefined();
      await client.close().catch(() => undefined);
    } finally {
      await first?.close();
      await second?.close();
      await demo.close();
    }
  });
});
