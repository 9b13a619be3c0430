import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { freePort } from './support/free-port.js';

let app: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope({ target: `http://127.0.0.1:${await freePort()}/mcp` });
});
afterAll(() => app.close());

describe('upstream unreachable', () => {
  it('answers the client with 502 and a JSON-RPC error carrying its id, and records a transport error', async () => {
    const res = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'tools/list' }),
    });
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 42, error: { code: -32000, message: expect.stringContaining('ECONNREFUSED') } });
    await settled(app);
    expect(app.store.exchanges(10)).toEqual([expect.objectContaining({ method: 'tools/list', status: 'transport_error', errorMessage: expect.stringContaining('ECONNREFUSED') })]);
  });
});
