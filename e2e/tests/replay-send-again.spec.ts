// Sending again from one replay panel: every replay it sends is a replay of the exchange the
// panel was opened on (the timeline's ↻ mark and the detail pane name that original), never
// of the previous replay.
import { expect, test } from '@playwright/test';
import { openDashboard, row, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test('a second Send from one replay panel links to the original exchange', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl, 'send-again-client');
  await client.listTools();
  await client.close();

  const original = row(page, 'tools/list').first();
  const originalId = await original.getAttribute('data-id');
  await original.click();
  await page.getByTestId('replay-button').click();
  const result = page.getByTestId('replay-result');

  await page.getByTestId('replay-send').click();
  await expect(result).toHaveAttribute('data-exchange-id', /.+/);
  const firstReplay = await result.getAttribute('data-exchange-id');
  await page.getByTestId('replay-send').click();
  await expect(result).not.toHaveAttribute('data-exchange-id', firstReplay!);
  const secondReplay = await result.getAttribute('data-exchange-id');

  for (const id of [firstReplay, secondReplay]) {
    await expect(page.locator(`[data-testid="exchange-row"][data-id="${id}"]`).getByTestId('replay-mark')).toHaveAttribute('data-replay-of', originalId!);
  }
});
