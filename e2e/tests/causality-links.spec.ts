// Issue 23, "Causality links": an official-SDK server (stateful Streamable HTTP) asks its client
// for a sampling and an elicitation while a tools/call runs (related to the call, so they ride on
// the call's POST answer stream) and for the roots (unrelated, so over the GET stream). The
// dashboard links each request to the call: exactly for the first two, by time overlap for the
// roots (and says so); the call links back to all three. In the raw view, a filter in the
// timeline's language shows the frames of the matching exchanges, and a frame links to its exchange.
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageRequestSchema, CreateMessageResultSchema, ElicitRequestSchema, ElicitResultSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { openDashboard, row, SCREENSHOTS } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

function tripServer(): McpServer {
  const server = new McpServer({ name: 'trips', version: '1.0.0' });
  server.registerTool('plan_trip', { inputSchema: { city: z.string() } }, async ({ city }, extra) => {
    const poem = await extra.sendRequest({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `a haiku about ${city}` } }], maxTokens: 40 } }, CreateMessageResultSchema);
    const budget = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'Your budget?', requestedSchema: { type: 'object', properties: { budget: { type: 'number' } } } } }, ElicitResultSchema);
    // Not related to the call: the SDK sends it on the session's GET stream.
    const roots = await server.server.listRoots();
    return { content: [{ type: 'text', text: `${city}: ${JSON.stringify(poem.content)} ${JSON.stringify(budget.content)} ${roots.roots.length} roots` }] };
  });
  return server;
}

let upstream: SdkServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  upstream = await startSdkServer(tripServer, 'stateful');
  app = await runMcpscope(['--target', upstream.url]);
  const client = new Client({ name: 'trip-client', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {}, roots: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', content: { type: 'text', text: 'old stones, new rain' }, model: 'e2e' }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { budget: 900 } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///trips', name: 'trips' }] }));
  await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
  await client.listTools();
  await client.callTool({ name: 'plan_trip', arguments: { city: 'Lisbon' } });
  await client.close();
});

test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

test('server requests link to the call they were sent during, exactly or by time, and back', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, app);
  const call = row(page, 'tools/call', 'ok');
  await expect(call).toHaveCount(1);
  const callId = await call.getAttribute('data-id');

  // Sampling rode on the call's POST stream: an exact link.
  await row(page, 'sampling/createMessage').click();
  const causedBy = page.getByTestId('detail-caused-by');
  await expect(causedBy.getByTestId('causal-link')).toHaveAttribute('data-basis', 'stream');
  await expect(causedBy.getByTestId('causal-link')).toHaveAttribute('data-id', callId!);
  await expect(causedBy).toContainText('on its stream');
  await expect(page.getByTestId('causal-overlap-note')).toHaveCount(0);

  await row(page, 'elicitation/create').click();
  await expect(causedBy.getByTestId('causal-link')).toHaveAttribute('data-basis', 'stream');

  // roots/list came over the GET stream: only time tells, and the detail says so.
  await row(page, 'roots/list').click();
  await expect(causedBy.getByTestId('causal-link')).toHaveAttribute('data-basis', 'overlap');
  await expect(causedBy.getByTestId('causal-link')).toHaveAttribute('data-id', callId!);
  await expect(page.getByTestId('causal-overlap-note')).toContainText('not a certainty');
  await page.screenshot({ path: `${SCREENSHOTS}causality-roots-overlap.png` });

  // Back: the link selects the call, which lists all three.
  await causedBy.getByRole('button', { name: /tools\/call/ }).click();
  await expect(call).toHaveAttribute('aria-selected', 'true');
  const caused = page.getByTestId('detail-caused');
  await expect(caused.getByTestId('causal-link')).toHaveCount(3);
  await expect(caused.locator('[data-basis="stream"]')).toHaveCount(2);
  await expect(caused.locator('[data-basis="overlap"]')).toHaveCount(1);
  await expect(caused).toContainText('sampling/createMessage');
  await expect(caused).toContainText('elicitation/create');
  await expect(caused).toContainText('roots/list');
  await page.screenshot({ path: `${SCREENSHOTS}causality-call.png` });
});

test('the raw view filters with the timeline language, and a frame links to its exchange', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, app);
  const samplingId = await row(page, 'sampling/createMessage').getAttribute('data-id');
  await page.getByTestId('raw-switch').click();
  await page.getByTestId('frames-filter').fill('method:sampling/createMessage');
  // The server's request and the client's answer.
  await expect(page.getByTestId('frames-filter-status')).toContainText('2 frames of matching exchanges');
  await expect(page.getByTestId('frame-row')).toHaveCount(2);
  await page.getByTestId('frame-row').last().click();
  const link = page.getByTestId('frame-exchange');
  await expect(link).toContainText(`#${samplingId} sampling/createMessage`);
  await page.screenshot({ path: `${SCREENSHOTS}raw-frames-filter.png` });

  // A filter that does not parse says why, as the timeline's does, and shows no frame.
  await page.getByTestId('frames-filter').fill('(method:sampling/createMessage');
  await expect(page.getByTestId('frames-filter-status').locator('.error-text')).toBeVisible();
  await expect(page.getByTestId('frame-row')).toHaveCount(0);
  await page.getByTestId('frames-filter').fill('method:sampling/createMessage');
  await page.getByTestId('frame-row').first().click();
  await link.getByRole('button').click();
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(row(page, 'sampling/createMessage')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('detail-caused-by')).toBeVisible();
});
