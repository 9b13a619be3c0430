// Issue 23 item 9: the HAR export tells the truth about HTTP. A notification's POST answered
// 202 Accepted carries status 202 (not 0), and the client's standing GET stream, on which the
// server sent a notification, has the same origin as the POSTs (not http://localhost/mcp).
// The upstream is a stateful official-SDK server that announces a change on the GET stream.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

interface HarEntry {
  request: { method: string; url: string; postData?: { text: string } };
  response: { status: number; statusText: string };
}

/** Announces a change outside any request: the SDK puts it on the client's standing GET stream. */
function announcer(): McpServer {
  const server = new McpServer({ name: 'announcer', version: '1.0.0' }, { capabilities: { resources: { listChanged: true } } });
  server.registerResource('note', 'note://one', {}, async () => ({ contents: [{ uri: 'note://one', text: 'one' }] }));
  server.registerTool('announce', {}, async () => {
    setTimeout(() => server.sendResourceListChanged(), 50);
    return { content: [{ type: 'text', text: 'announced' }] };
  });
  return server;
}

let upstream: SdkServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  upstream = await startSdkServer(announcer, 'stateful');
  app = await runMcpscope(['--target', upstream.url]);
});

test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

test('HAR: 202 Accepted answers keep their status and the GET stream shares the POSTs\' origin', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  const client = await sdkClient(app.mcpUrl, 'har-client');
  await openDashboard(page, app);
  await client.callTool({ name: 'announce', arguments: {} });
  await expect(row(page, 'notifications/resources/list_changed')).toHaveCount(1);
  await client.close();

  await page.getByTestId('export-menu-button').click();
  await page.getByRole('radio', { name: /HAR 1\.2/ }).check();
  await page.screenshot({ path: `${SCREENSHOTS}har-export-menu.png` });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  const har = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { log: { entries: HarEntry[] } };
  const entries = har.log.entries;

  const initialized = entries.find((e) => e.request.postData?.text.includes('notifications/initialized'));
  expect(initialized?.response.status, 'the notification was answered 202 Accepted').toBe(202);
  expect(initialized?.response.statusText).toBe('Accepted');
  for (const e of entries) expect(e.response.status, `${e.request.method} ${e.request.url} has a status`).not.toBe(0);

  const posts = entries.filter((e) => e.request.method === 'POST');
  const stream = entries.find((e) => e.request.method === 'GET' && JSON.stringify(e).includes('list_changed'));
  expect(stream, 'the GET stream that carried the notification is an entry').toBeDefined();
  const origins = new Set([...posts, stream!].map((e) => new URL(e.request.url).origin));
  expect([...origins]).toEqual([new URL(app.mcpUrl).origin]);
});
