// Issue 23, "Diff any two exchanges": two tools/call of the demo server, sent through the tap by
// the official SDK client, are picked in the timeline (ctrl-click, and "Pick to compare" in the
// detail pane) and compared: their requests and their answers diffed side by side in the replay
// panel's diff editor.
import { expect, test } from '@playwright/test';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test('two picked exchanges are compared: requests and answers diffed side by side', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const client = await sdkClient(proxy.app.mcpUrl, 'compare-client');
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 300 } });
  await client.close();
  await openDashboard(page, proxy.app);
  const calls = row(page, 'tools/call');
  await expect(calls).toHaveCount(2);

  // Ctrl-click picks without opening; the bar asks for the second one.
  await calls.first().click({ modifiers: ['Control'] });
  await expect(page.getByTestId('detail-pane')).toHaveCount(0);
  await expect(calls.first()).toHaveAttribute('data-picked', 'true');
  await expect(page.getByTestId('compare-bar')).toContainText('ctrl/⌘-click another row');
  await expect(page.getByTestId('compare-open')).toBeDisabled();

  // The second from the detail pane's button.
  await calls.last().click();
  await page.getByTestId('compare-pick').click();
  await expect(calls.last()).toHaveAttribute('data-picked', 'true');
  await page.getByTestId('compare-open').click();

  const panel = page.getByTestId('compare-panel');
  const request = panel.getByTestId('compare-request');
  const answer = panel.getByTestId('compare-response');
  await expect(request).toHaveAttribute('data-same', 'false');
  await expect(request).toContainText('birthday');
  await expect(request).toContainText('wedding');
  await expect(answer).toContainText('Gift ideas');
  // Monaco marks the differing lines on both sides.
  await expect(request.locator('.line-delete, .char-delete').first()).toBeVisible();
  await expect(request.locator('.line-insert, .char-insert').first()).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}compare-exchanges.png` });

  // Esc closes the comparison; Clear drops the picks.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await page.getByTestId('compare-clear').click();
  await expect(page.getByTestId('compare-bar')).toHaveCount(0);
  await expect(page.locator('[data-testid="exchange-row"][data-picked]')).toHaveCount(0);
});
