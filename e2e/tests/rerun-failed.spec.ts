// "Re-run failed calls" in Chromium (issue 17): a client's calls fail against a server; the
// server is fixed (one tool of two); the user re-runs the failed calls of the view from the
// dashboard: each is replayed in a fresh session, captured and linked to its original, and the
// table says which is fixed and which still fails, with a diff per row. Then a filter and the
// selected call as the scope.
import { expect, test } from '@playwright/test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

/** The server under repair: `weather` is fixed when `fixed` is set, `stock` stays broken. */
const repairs = { fixed: false };

function fixtureServer(): McpServer {
  const server = new McpServer({ name: 'under-repair', version: '1.0.0' });
  server.registerTool('weather', { inputSchema: { city: z.string() } }, async ({ city }) => {
    if (!repairs.fixed) throw new Error(`weather service down for ${city}`);
    return { content: [{ type: 'text', text: `Sunny in ${city}` }] };
  });
  server.registerTool('stock', { inputSchema: { symbol: z.string() } }, async ({ symbol }) => {
    throw new Error(`no quote for ${symbol}`);
  });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

let upstream: SdkServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  upstream = await startSdkServer(fixtureServer, 'stateless');
  app = await runMcpscope(['--target', upstream.url]);
});

test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

test('after a fix, the failed calls of the view are re-run: one fixed, one still failing, each linked and diffed', async ({ page }) => {
  const client = await sdkClient(app.mcpUrl, 'agent');
  expect((await client.callTool({ name: 'weather', arguments: { city: 'Lyon' } })).isError).toBe(true);
  expect((await client.callTool({ name: 'stock', arguments: { symbol: 'ACME' } })).isError).toBe(true);
  expect((await client.callTool({ name: 'echo', arguments: { text: 'fine' } })).isError).toBeFalsy();
  await client.close();

  await openDashboard(page, app);
  await expect(row(page, 'tools/call')).toHaveCount(3);
  await expect(row(page, 'tools/call', 'business_error')).toHaveCount(2);
  const weatherId = await row(page, 'tools/call', 'business_error').first().getAttribute('data-id');
  repairs.fixed = true;

  await page.getByTestId('rerun-open').click();
  const panel = page.getByTestId('rerun-panel');
  await expect(panel).toContainText('2 failed calls in the view');
  await page.getByTestId('rerun-start').click();
  await expect(page.getByTestId('rerun-summary')).toHaveText('2 of 2 re-run: 1 fixed, 1 still failing');

  const rows = page.getByTestId('rerun-row');
  await expect(rows).toHaveCount(2);
  const weather = rows.filter({ hasText: 'weather' });
  const stock = rows.filter({ hasText: 'stock' });
  await expect(weather).toHaveAttribute('data-verdict', 'fixed');
  await expect(weather).toHaveAttribute('data-after', 'ok');
  await expect(stock).toHaveAttribute('data-verdict', 'failing');
  await expect(stock).toHaveAttribute('data-after', 'business_error');
  await expect(stock).toContainText('still failing');

  // Every replay is in the timeline, marked as a replay of its original.
  const replayId = await weather.getAttribute('data-replay-id');
  const replayRow = page.locator(`[data-testid="exchange-row"][data-id="${replayId}"]`);
  await expect(replayRow).toHaveAttribute('data-status', 'ok');
  await expect(replayRow.getByTestId('replay-mark')).toHaveAttribute('data-replay-of', weatherId!);

  // The diff of the weather row: the captured error beside the new answer.
  await weather.getByTestId('rerun-diff-toggle').click();
  const diff = page.getByTestId('rerun-diff');
  await expect(diff.locator('.monaco-diff-editor')).toBeVisible({ timeout: 20_000 });
  await expect(diff.locator('.editor.original .lines-content > .view-lines')).toContainText('weather service down for Lyon');
  await expect(diff.locator('.editor.modified .lines-content > .view-lines')).toContainText('Sunny in Lyon');
  await page.screenshot({ path: `${SCREENSHOTS}rerun-failed.png` });

  // The replay link selects the replay in the timeline.
  await weather.getByTestId('rerun-replay-link').click();
  await expect(page.locator('[data-testid="exchange-row"][aria-selected="true"]')).toHaveAttribute('data-id', replayId!);
  await page.getByTestId('rerun-close').click();
  await expect(panel).toHaveCount(0);
});

test('the scope follows the filter, or is the selected call', async ({ page }) => {
  await openDashboard(page, app);
  await page.getByTestId('filter-input').fill('tool:stock');
  await expect(row(page, 'tools/call')).toHaveCount(2); // the original and its replay

  await page.getByTestId('rerun-open').click();
  const panel = page.getByTestId('rerun-panel');
  await expect(panel).toContainText('1 failed call in the view (filter tool:stock)');
  await page.getByTestId('rerun-close').click();

  await page.getByTestId('filter-input').fill('');
  await page.getByTestId('filter-input').press('Escape'); // close the suggestions over the rows
  const echo = page.locator('[data-testid="exchange-row"][data-method="tools/call"]').filter({ hasText: 'echo' });
  await echo.click();
  await page.getByTestId('rerun-open').click();
  await page.getByTestId('rerun-scope-selected').check();
  await page.getByTestId('rerun-start').click();
  await expect(page.getByTestId('rerun-summary')).toHaveText('1 of 1 re-run: 1 same');
  await expect(page.getByTestId('rerun-row')).toHaveAttribute('data-verdict', 'same');
});
