// Every kind of outcome an MCP exchange can have shows its own badge (icon and words), live,
// against the real CLI, the real demo server and the official SDK client.
import { expect, test } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, postJunk, row, sdkClient } from '../support/dashboard.js';

test.use({ viewport: { width: 1440, height: 860 } });

let app: RunningMcpscope;
let dead: RunningMcpscope;
test.beforeAll(async () => {
  app = await runMcpscope();
  // A tap whose upstream is a port nobody listens on: every call is a transport error.
  dead = await runMcpscope(['--target', 'http://127.0.0.1:9/mcp']);
});
test.afterAll(async () => {
  await app?.stop();
  await dead?.stop();
});

test('first run says what to do, and the sample call fills the timeline live', async ({ page }) => {
  await openDashboard(page, app);
  const first = page.getByTestId('first-run');
  await expect(first).toContainText('Nothing captured yet');
  await expect(page.getByTestId('tap-url')).toContainText(app.mcpUrl);
  await expect(first).toContainText('claude mcp add --transport http mcpscope');
  await page.screenshot({ path: `${SCREENSHOTS}first-run.png` });

  await page.getByTestId('sample-call').click();
  await expect(row(page, 'tools/call', 'ok')).toHaveCount(1);
  await expect(row(page, 'tools/call')).toContainText('suggest_gifts');
  await expect(row(page, 'initialize', 'ok')).toHaveCount(1);
  await expect(page.getByTestId('first-run')).toHaveCount(0);
});

test('ok, protocol error, tool error, pending, cancelled and invalid each get their own badge', async ({ page }) => {
  await openDashboard(page, app);
  const client = await sdkClient(app.mcpUrl);

  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 120 } });
  const protocol = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 'lots' } }).catch((e: Error) => e);
  expect(protocol).toBeInstanceOf(Error);
  const business = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 1 } });
  expect(business.isError).toBe(true);
  const badge = (status: string) => page.locator(`[data-testid="exchange-row"][data-method="tools/call"] [data-testid="status-badge"][data-status="${status}"]`);
  await expect(badge('ok').last()).toHaveText('✓ok');
  await expect(badge('protocol_error')).toHaveText('✕-32602 Invalid params');
  await expect(badge('business_error')).toHaveText('⚠tool error');

  // Pending: a long wrap shows a running timer until its answer arrives.
  const wrap = client.callTool({ name: 'wrap_gift', arguments: { gift: 'vase', steps: 12 } }, undefined, { onprogress: () => {} });
  const pending = badge('pending');
  await expect(pending).toHaveCount(1);
  const first = await pending.locator('.timer').textContent();
  await expect(pending.locator('.timer')).not.toHaveText(first!);
  await page.screenshot({ path: `${SCREENSHOTS}timeline-pending.png` });
  await wrap;
  await expect(pending).toHaveCount(0);

  // Cancelled: the SDK sends notifications/cancelled when the caller aborts.
  const abort = new AbortController();
  const cancelled = client.callTool({ name: 'wrap_gift', arguments: { gift: 'lamp', steps: 20 } }, undefined, { signal: abort.signal }).catch((e: Error) => e);
  await expect(badge('pending')).toHaveCount(1);
  abort.abort('changed my mind');
  expect(await cancelled).toBeInstanceOf(Error);
  await expect(badge('cancelled')).toHaveText('⊘cancelled');

  // Invalid: bytes that are not JSON-RPC, posted straight to the tap.
  await postJunk(app.mcpUrl);
  const invalid = page.locator('[data-testid="exchange-row"][data-status="invalid"]');
  await expect(invalid).toHaveCount(1);
  await expect(invalid.getByTestId('status-badge')).toHaveText('≠invalid');

  await page.getByTestId('legend-button').click();
  await expect(page.getByTestId('legend')).toContainText('isError: true');
  await page.screenshot({ path: `${SCREENSHOTS}timeline-outcomes.png` });
  await client.close();
});

test('a call to an upstream that is down shows a transport error', async ({ page }) => {
  await openDashboard(page, dead);
  const failed = await sdkClient(dead.mcpUrl).catch((e: Error) => e);
  expect(failed).toBeInstanceOf(Error);
  const badge = page.locator('[data-testid="exchange-row"][data-status="transport_error"] [data-testid="status-badge"]');
  await expect(badge.first()).toHaveText('⚡transport error');
});
