// An MCP POST the server answers with an OAuth challenge (401 + WWW-Authenticate: Bearer
// resource_metadata=…, body {"error":"invalid_token"}) is "authorization required", not a broken
// JSON-RPC message: its own transport event and message, no invalid-message diagnostic on the
// body, and its frame names the door record the Connections story is built from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeDetail, ExchangesPage } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { freePort } from './support/free-port.js';
import { startSdkOAuthServer, type SdkOAuthServer } from './support/oauth-sdk-server.js';
import { apiGet } from './support/api.js';

let server: SdkOAuthServer;
let app: Mcpscope;
beforeAll(async () => {
  const port = await freePort();
  const publicOrigin = `http://localhost:${port}`;
  server = await startSdkOAuthServer({ publicOrigin });
  app = await startTestMcpscope({ target: server.mcpUrl, port, publicUrl: publicOrigin });
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

describe('an OAuth 401 on the MCP endpoint', () => {
  it('reads as authorization required, with no JSON-RPC diagnostic, linked to its door record', async () => {
    const res = await fetch(app.publicMcpUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': 'openai-mcp/1.0.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openai-mcp', version: '1.0.0' } } }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect(await res.json()).toMatchObject({ error: 'invalid_token' });
    await settled(app);

    const { exchanges } = await apiGet<ExchangesPage>(app, '/api/exchanges');
    const init = exchanges.find((e) => e.method === 'initialize')!;
    expect(init.status).toBe('transport_error');
    expect(init.transportEvent).toBe('authorization-required');
    expect(init.errorMessage).toMatch(/^authorization required: HTTP 401, WWW-Authenticate: Bearer .*resource_metadata=/);
    expect(init.errorMessage).not.toContain('jsonrpc');

    const detail = await apiGet<ExchangeDetail>(app, `/api/exchanges/${init.id}`);
    expect(detail.diagnostics.filter((d) => d.code === 'invalid-message')).toEqual([]);
    expect(detail.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const answer = detail.frames.find((f) => f.direction === 's2c')!;
    expect(answer.http?.requestId).toBeGreaterThan(0);
  });
});
