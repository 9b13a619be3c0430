// The thinnest complete path: an official SDK client calls suggest_gifts through the tap, and
// the rows appear in the dashboard in real Chromium without a reload.
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test('a tools/call through the tap appears live in the dashboard', async ({ page }) => {
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('request', (r) => {
    if (!r.url().startsWith(proxy.app.dashboardUrl) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreignRequests.push(r.url());
  });

  await page.goto(proxy.app.dashboardLoginUrl);
  // The token leaves the address bar once the app has taken it.
  await expect(page).not.toHaveURL(/token=/);
  await expect(page.getByTestId('connection')).toHaveText('live');
  await expect(page.getByTestId('exchange-row')).toHaveCount(0);

  const client = new Client({ name: 'e2e-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl)));
  const result = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'graduation', budget: 70 } });
  expect(result.structuredContent).toMatchObject({ gifts: expect.any(Array) });

  const call = page.locator('[data-testid="exchange-row"][data-method="tools/call"]');
  await expect(call).toHaveCount(1);
  await expect(call).toHaveAttribute('data-status', 'ok');
  await expect(call).toContainText('suggest_gifts');
  await expect(page.locator('[data-testid="exchange-row"][data-method="initialize"]')).toHaveCount(1);

  await call.click();
  const detail = page.getByTestId('detail-pane');
  await expect(detail).toContainText('suggest_gifts');
  // Monaco, bundled, renders a body on demand (the detail pane's "Editor" view).
  await detail.getByTestId('frame-card').first().getByRole('tab', { name: 'Editor' }).click();
  await expect(detail.locator('.monaco-editor')).toBeVisible();
  await expect(detail.locator('.view-lines')).toContainText('graduation');
  await page.screenshot({ path: '../reports/screenshots/walking-skeleton.png' });

  await client.close();
  expect(foreignRequests).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
