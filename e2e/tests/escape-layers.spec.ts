// Esc closes the topmost open thing, one per press, the same way in every view: the Re-run
// panel, the Export popover and the Columns menu before the detail pane behind them, and in
// Raw frames the frame's detail as in Exchanges the exchange's. The Export preview counts what
// is captured while it is open.
import { expect, test, type Page } from '@playwright/test';
import { openDashboard, row, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test.use({ viewport: { width: 1440, height: 900 } });

async function listToolsOnce(page: Page, name: string): Promise<void> {
  const client = await sdkClient(proxy.app.mcpUrl, name);
  await client.listTools();
  await client.close();
  await expect(page.getByTestId('session-item').filter({ hasText: name })).toHaveCount(1);
}

test('Esc closes the Re-run panel, the Export popover and the Columns menu before the detail pane', async ({ page }) => {
  await openDashboard(page, proxy.app);
  await listToolsOnce(page, 'esc-client');
  await row(page, 'tools/list').first().click();
  const detail = page.getByTestId('detail-pane');
  await expect(detail).toBeVisible();

  await page.getByTestId('rerun-open').click();
  await expect(page.getByTestId('rerun-panel')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('rerun-panel')).toHaveCount(0);
  await expect(detail).toBeVisible();

  await page.getByTestId('export-menu-button').click();
  const preview = page.getByTestId('export-preview');
  await expect(preview).toContainText(/\d+ exchanges? \(\d+ frames?\)/);
  const before = await preview.textContent();
  await listToolsOnce(page, 'esc-client-2');
  await expect(preview).not.toHaveText(before!);
  await expect(preview).toContainText(/\d+ exchanges? \(\d+ frames?\)/);
  await page.getByTestId('export-redact-input').click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-panel')).toHaveCount(0);
  await expect(detail).toBeVisible();

  await page.getByTestId('columns-button').click();
  await expect(page.getByTestId('column-chooser')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('column-chooser')).toHaveCount(0);
  await expect(detail).toBeVisible();

  // Nothing else open: Esc closes the detail pane.
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
});

test("in Raw frames Esc closes the frame's detail, as in Exchanges it closes the exchange's", async ({ page }) => {
  await openDashboard(page, proxy.app);
  await listToolsOnce(page, 'esc-frames');
  await page.getByTestId('raw-switch').click();
  await page.getByTestId('frame-row').first().click();
  await expect(page.getByTestId('frame-detail')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('frame-detail')).toHaveCount(0);
});
