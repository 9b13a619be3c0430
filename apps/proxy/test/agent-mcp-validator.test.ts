// mcpscope's own MCP server should be the best-behaved server its user has: run it through a
// second mcpscope's tap, call every tool (errors included), and that mcpscope's validator (schema
// per revision, outputSchema checks, lints) finds nothing in its traffic. Over stdio (`mcpscope
// mcp --db FILE` as the second mcpscope's --stdio server) and over Streamable HTTP (the first
// mcpscope's dashboard /mcp as the second one's --target).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { tempDbFile } from './store-helpers.js';
import { call, CLI_ARGV } from './support/agent-client.js';

let captured: Mcpscope;
let db: string;
let toolsExchange: string;

beforeAll(async () => {
  db = tempDbFile();
  // A capture to serve: the embedded demo server's traffic, failures included.
  captured = await startTestMcpscope({ db, allowAgentReplay: true });
  const client = await connectClient(captured.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40 } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: -5 } }).catch(() => undefined);
  await client.close();
  await settled(captured);
  toolsExchange = captured.store.exchanges(50).find((e) => e.method === 'tools/call')!.id;
}, 60_000);

afterAll(() => captured?.close());

/** Every tool, with good and bad input. */
async function exercise(agent: Client, withReplay: boolean): Promise<void> {
  const { tools } = await agent.listTools();
  expect(tools.length).toBeGreaterThanOrEqual(4);
  await call(agent, 'list_sessions');
  await call(agent, 'list_sessions', { limit: 1 });
  const page = await call<{ nextCursor: string | null }>(agent, 'search_exchanges', { limit: 2 });
  await call(agent, 'search_exchanges', { limit: 2, cursor: page.structuredContent.nextCursor });
  await call(agent, 'search_exchanges', { filter: 'status:err' });
  expect((await call(agent, 'search_exchanges', { filter: 'method:(' })).isError).toBe(true);
  const one = await call<{ frames: { seq: number }[] }>(agent, 'get_exchange', { id: toolsExchange, maxBodyChars: 100 });
  await call(agent, 'get_frame_body', { seq: one.structuredContent.frames[0]!.seq, offset: 10, length: 20 });
  expect((await call(agent, 'get_exchange', { id: 'nope' })).isError).toBe(true);
  expect((await call(agent, 'get_frame_body', { seq: 987654 })).isError).toBe(true);
  if (withReplay) {
    await call(agent, 'replay_exchange', { exchangeId: toolsExchange });
    await call(agent, 'verify_capture', { only: 'tool:suggest_gifts' });
  }
}

async function expectNoDiagnostics(observer: Mcpscope): Promise<void> {
  await settled(observer);
  const exchanges = observer.store.exchanges(1000);
  expect(exchanges.filter((e) => e.method === 'tools/call').length).toBeGreaterThanOrEqual(9);
  const findings = exchanges.flatMap((e) => observer.store.diagnosticsFor(e).map((d) => `${e.method} ${d.code}: ${d.message}`));
  expect(findings).toEqual([]);
  expect(exchanges.filter((e) => e.status !== 'ok' && e.status !== 'business_error')).toEqual([]);
}

describe("mcpscope's own MCP server, watched by a second mcpscope", { timeout: 90_000 }, () => {
  it('over stdio: no diagnostics', async () => {
    const observer = await startTestMcpscope({ stdio: [...CLI_ARGV, 'mcp', '--db', db].map((a) => (a.includes(' ') ? `"${a}"` : a)).join(' ') });
    try {
      const agent = await connectClient(observer.mcpUrl);
      await exercise(agent, false);
      await agent.close();
      await expectNoDiagnostics(observer);
    } finally {
      await observer.close();
    }
  });

  it('over Streamable HTTP (the dashboard /mcp, replay included): no diagnostics', async () => {
    const observer = await startTestMcpscope({ target: `${captured.dashboardUrl}/mcp` });
    try {
      const agent = new SdkClient({ name: 'agent-test', version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(observer.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${captured.token}` } } }));
      await exercise(agent, true);
      await expectNoDiagnostics(observer);
      // The control: the same validator does flag what breaks a tool's inputSchema in this traffic.
      await call(agent, 'get_exchange', { id: 42 });
      await agent.close();
      await settled(observer);
      const codes = observer.store.exchanges(1000).flatMap((e) => observer.store.diagnosticCodes(e));
      expect(codes).toContain('tool-arguments-invalid');
    } finally {
      await observer.close();
    }
  });
});
