// A connector URL without the server's MCP path: the client POSTs to `/`, gets whatever the server
// serves there, then probes discovery of that origin. Through the real tap and the dashboard's flow
// code, the headline names the wrong path and the URL to use, not the discovery that followed.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildConnectionFlows } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { allRequests } from './support/door-flows.js';

let app: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope({ publicUrl: 'https://brave-otter.trycloudflare.com' });
});
afterAll(() => app?.close());

/** A request as the tunnel delivers it (fetch cannot set Host). */
function viaTunnel(method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  const url = new URL(app.tapUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

it('heads the story with "POST / is not the MCP endpoint: use https://…/mcp"', async () => {
  const headers = { host: 'brave-otter.trycloudflare.com', 'x-forwarded-proto': 'https', 'user-agent': 'openai-mcp/1.0.0' };
  const status = await viaTunnel('POST', '/', { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }));
  expect(status).toBeGreaterThanOrEqual(400);
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server']) await viaTunnel('GET', path, headers);

  const records = await allRequests(app);
  const sessions = new Map(app.store.sessions().map((s) => [s.sessionKey, s]));
  const [flow] = buildConnectionFlows(records, { exchange: (id) => app.store.exchange(id), session: (key) => sessions.get(key), mcpPath: new URL(app.mcpUrl).pathname });
  expect(flow!.verdict).toEqual({ kind: 'failed', sentence: 'POST / is not the MCP endpoint: use https://brave-otter.trycloudflare.com/mcp.' });
  expect(flow!.steps[0]).toMatchObject({ check: 'not-mcp-endpoint', colour: 'red' });
});
