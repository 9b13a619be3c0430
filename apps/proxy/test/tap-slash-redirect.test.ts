// A server mounted the way Starlette mounts FastMCP and the Python SDK (support/slash-redirect-server.ts):
// `/mcp` answers 307 to `/mcp/`. With --target …/mcp, the official SDK client follows the redirect
// back through the tap. The calls it makes on `/mcp/` are recorded as MCP traffic, and each
// redirected POST is a transport row that says where the server sent it and what to point at.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { settled } from './helpers.js';
import { proxiedUpstream } from './support/proxy-fixture.js';
import { startSlashRedirectServer } from './support/slash-redirect-server.js';

const proxy = proxiedUpstream(startSlashRedirectServer);

describe('a server that redirects /mcp to /mcp/', () => {
  it('records the calls made after the redirect, and says why each first POST got no answer', async () => {
    const client = new Client({ name: 'slash-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl)));
    const answer = await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
    expect(answer.content).toEqual([{ type: 'text', text: 'Sunny in Lyon' }]);
    await client.close();
    await settled(proxy.app);

    const exchanges = proxy.app.store.exchanges(100).reverse();
    const calls = exchanges.filter((e) => e.method === 'tools/call');
    expect(calls.map((e) => e.status)).toEqual(['transport_error', 'ok']);
    expect(calls[0]!.errorMessage).toContain('/mcp/');
    expect(calls[0]!.errorMessage).toMatch(/redirect/i);
    expect(exchanges.filter((e) => e.method === 'initialize').map((e) => e.status)).toEqual(['transport_error', 'ok']);
    // The POST sent again is a new request, not a reuse of an id still in flight.
    const diagnostics = exchanges.flatMap((e) => proxy.app.store.diagnosticsFor(e));
    expect(diagnostics.map((d) => d.code)).not.toContain('id-reused-in-flight');
    // Both doors are MCP requests: the redirected one and the one that was answered.
    const doors = proxy.app.store.door.page(null, 0, 100).requests.filter((r) => r.method === 'POST');
    expect(new Set(doors.map((r) => [r.path, r.status, r.mcp].join(' ')))).toEqual(new Set(['/mcp 307 true', '/mcp/ 200 true', '/mcp/ 202 true']));
  });
});
