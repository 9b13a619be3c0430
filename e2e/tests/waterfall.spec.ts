// Issue 23, "A waterfall": an official-SDK server whose tool reports progress three times before
// it answers; the SDK client calls it twice at once, then a quick tool. The timeline's Waterfall
// column draws each call as a bar from request to answer on one scale for the rows in view: the
// two concurrent calls overlap, the quick call comes after both, and each slow call carries a
// tick per progress notification.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test, type Locator } from '@playwright/test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

function crawlServer(): McpServer {
  const server = new McpServer({ name: 'crawler', version: '1.0.0' });
  server.registerTool('crawl', { inputSchema: { site: z.string() } }, async ({ site }, extra) => {
    const token = extra._meta?.progressToken;
    for (let page = 1; page <= 3; page++) {
      await sleep(60);
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: page, total: 3 } });
    }
    return { content: [{ type: 'text', text: `${site}: 3 pages` }] };
  });
  server.registerTool('ping_site', { inputSchema: { site: z.string() } }, async ({ site }) => ({ content: [{ type: 'text', text: `${site} is up` }] }));
  return server;
}

let upstream: SdkServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  upstream = await startSdkServer(crawlServer, 'stateless');
  app = await runMcpscope(['--target', upstream.url]);
  const client = await sdkClient(app.mcpUrl, 'crawl-client');
  const onprogress = () => {};
  await Promise.all([
    client.callTool({ name: 'crawl', arguments: { site: 'a.example' } }, undefined, { onprogress }),
    client.callTool({ name: 'crawl', arguments: { site: 'b.example' } }, undefined, { onprogress }),
  ]);
  await client.callTool({ name: 'ping_site', arguments: { site: 'c.example' } });
  await client.close();
});

test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

async function span(cell: Locator): Promise<[number, number]> {
  const left = Number(await cell.getAttribute('data-left'));
  return [left, left + Number(await cell.getAttribute('data-width'))];
}

test('the waterfall shows concurrency at a glance, with progress as ticks', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 800 });
  await openDashboard(page, app);
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-columns', /waterfall/);
  await expect(page.locator('.timeline-head [data-column="waterfall"]')).toHaveText('Waterfall');

  const crawls = row(page, 'tools/call').filter({ has: page.locator('.col-target', { hasText: 'crawl' }) });
  await expect(crawls).toHaveCount(2);
  const quick = row(page, 'tools/call').filter({ hasText: 'ping_site' });
  await expect(quick).toHaveCount(1);
  await expect(quick.getByTestId('waterfall')).toHaveAttribute('data-ticks', '0');
  for (const crawl of await crawls.all()) await expect(crawl.getByTestId('waterfall-tick')).toHaveCount(3);

  const [a, b] = [await span(crawls.nth(0).getByTestId('waterfall')), await span(crawls.nth(1).getByTestId('waterfall'))];
  // Sent together, answered after three progress notes each: their bars overlap.
  expect(a[0] < b[1] && b[0] < a[1]).toBe(true);
  // The quick call was sent after both answers: its bar starts where theirs end, or later.
  const c = await span(quick.getByTestId('waterfall'));
  expect(c[0]).toBeGreaterThanOrEqual(Math.max(a[1], b[1]) - 0.1);
  await expect(crawls.first().getByTestId('waterfall')).toHaveAttribute('title', /answered in .*3 progress notifications/);
  await page.screenshot({ path: `${SCREENSHOTS}waterfall.png` });

  // The column can be left out like any other.
  await page.getByTestId('columns-button').click();
  await page.getByTestId('column-toggle-waterfall').uncheck();
  await expect(page.getByTestId('timeline')).not.toHaveAttribute('data-columns', /waterfall/);
  await page.getByTestId('column-toggle-waterfall').check();
});
