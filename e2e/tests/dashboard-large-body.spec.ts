// A tools/call over 1 MiB: the detail pane checks the whole request (no false "arguments
// undefined", no "not JSON"), and Edit & replay edits and sends the whole message.
import { expect, test } from '@playwright/test';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, row, sdkClient } from '../support/dashboard.js';

test.use({ viewport: { width: 1440, height: 900 } });

const proxy = mcpscopeForTests();
/** About 2 MB of valid argument: well over the detail route's 1 MiB cut. */
const RECIPIENT = `Ada ${'x'.repeat(2_000_000)}`;

test.beforeAll(async () => {
  const client = await sdkClient(proxy.app.mcpUrl, 'big-client');
  await client.listTools();
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50, recipient: RECIPIENT } });
  await client.close();
});

test('the detail pane checks the whole 2 MB request', async ({ page }) => {
  await openDashboard(page, proxy.app);
  await row(page, 'tools/call').click();
  await expect(page.getByTestId('schema-verdict').first()).toContainText('The arguments fit the schema');
  await expect(page.getByTestId('detail-pane')).not.toContainText('not JSON');
  await expect(page.getByTestId('api-truncated')).toHaveCount(0);
  await expect(page.locator('[data-testid="frame-card"][data-role="request"]')).toContainText('Tree');
  await page.screenshot({ path: `${SCREENSHOTS}large-body-detail.png` });
});

test('Edit & replay loads and sends the whole message', async ({ page }) => {
  // Two 2 MB bodies through Monaco (editor, then the diff) on a busy machine.
  test.setTimeout(150_000);
  await openDashboard(page, proxy.app);
  await row(page, 'tools/call').click();
  await expect(page.getByTestId('schema-verdict').first()).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('replay-button').click();
  const editor = page.getByTestId('replay-editor');
  await expect(editor.locator('.view-lines')).toContainText('tools/call', { timeout: 60_000 });
  // A cut copy is unterminated JSON, which Monaco marks; the whole message has no marks.
  await expect(editor.locator('.squiggly-error')).toHaveCount(0);
  await page.getByTestId('replay-send').click();
  const result = page.getByTestId('replay-result');
  await expect(result).toBeVisible({ timeout: 30_000 });
  await expect(result).toHaveAttribute('data-status', 'ok');
  await expect(page.getByTestId('replay-error')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENSHOTS}large-body-replay.png` });
});
