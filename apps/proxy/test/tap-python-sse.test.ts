// Legacy HTTP+SSE through the tap against a server that speaks the Python SDK's wire format
// (`/messages/?session_id=<hex>`, support/python-sse-server.ts), with the official SDK client: the
// stream and every POST are one session, keyed by the server's session id, and every answer that
// comes back on the stream pairs with its POST.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { settled } from './helpers.js';
import { proxiedUpstream } from './support/proxy-fixture.js';
import { startPythonSseServer } from './support/python-sse-server.js';

const proxy = proxiedUpstream(startPythonSseServer);

describe('legacy HTTP+SSE through the tap (Python SDK wire format)', () => {
  it('keys the session by its session_id and pairs the answers on the stream with the POSTs', async () => {
    const client = new Client({ name: 'python-sse-test', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(proxy.app.mcpUrl)));
    const answer = await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
    expect(answer.content).toEqual([{ type: 'text', text: 'Sunny in Lyon' }]);
    await client.listTools();
    await client.close();
    await settled(proxy.app);

    const sessions = proxy.app.store.sessions().filter((s) => s.transport === 'legacy-sse');
    expect(sessions.map((s) => s.sessionKey)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    const key = sessions[0]!.sessionKey;
    expect(sessions[0]).toMatchObject({ clientInfo: { name: 'python-sse-test' } });
    // Newest first, as the store pages them.
    const exchanges = proxy.app.store.exchanges(100).filter((e) => e.kind === 'request').reverse();
    expect(exchanges.map((e) => [e.method, e.status, e.sessionKey])).toEqual([
      ['initialize', 'ok', key],
      ['tools/call', 'ok', key],
      ['tools/list', 'ok', key],
    ]);
  });
});
