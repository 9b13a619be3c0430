// Issue 23 item 11: an elicitation answered with `"number": 3.14` for a field the schema types as
// integer is reported at that field as an integer problem (not "$.result.content.number must be
// array", the first anyOf branch), and as a warning, because the official SDK accepts it.
// Real official-SDK server (asks) and client (answers) through the tap.
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { openDashboard, row, SCREENSHOTS } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

/** Asks the client for a number while it answers a call (elicitation/create). */
function asker(): McpServer {
  const server = new McpServer({ name: 'asker', version: '1.0.0' });
  server.registerTool('ask', {}, async () => {
    const answer = await server.server.elicitInput({ message: 'How many?', requestedSchema: { type: 'object', properties: { number: { type: 'number' } } } });
    return { content: [{ type: 'text', text: JSON.stringify(answer.content) }] };
  });
  return server;
}

let upstream: SdkServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  upstream = await startSdkServer(asker, 'stateful');
  app = await runMcpscope(['--target', upstream.url]);
});

test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

test('an elicitation answer of 3.14 is diagnosed at its field as an integer warning, not "must be array"', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const client = new Client({ name: 'answerer', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { number: 3.14 } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
  const result = await client.callTool({ name: 'ask', arguments: {} });
  expect(JSON.stringify(result.content)).toContain('3.14'); // the SDK server took the answer
  await client.close();

  await openDashboard(page, app);
  await row(page, 'elicitation/create').click();
  const diagnostics = page.getByTestId('diagnostics');
  await expect(diagnostics).toContainText('$.result.content.number');
  await expect(diagnostics).toContainText('must be an integer (3.14 has a fraction)');
  await expect(diagnostics).toContainText('official MCP SDK accepts');
  await expect(diagnostics).not.toContainText('must be array');
  await expect(diagnostics.locator('.diag.sev-warning')).toHaveCount(1);
  await expect(diagnostics.locator('.diag.sev-error')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}schema-branch-elicitation.png` });
});
