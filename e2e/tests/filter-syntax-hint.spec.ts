// Issue 23 item 12: near misses of the filter language are not silently free text. Typing
// `latency > 10`, `a OR b` or `a and b` offers the intended spelling in the status line; one
// click applies it and the view narrows as the intended filter does.
import { expect, test } from '@playwright/test';
import { openDashboard, rows, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test.beforeAll(async () => {
  const client = await sdkClient(proxy.app.mcpUrl, 'hint-client');
  await client.listTools();
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50 } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'retirement', budget: 4 } });
  await client.close();
});

test('latency > 10, a OR b and a and b suggest the intended syntax', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await openDashboard(page, proxy.app);
  const input = page.getByTestId('filter-input');
  const hint = page.getByTestId('filter-hint');

  await input.fill('latency > 0');
  await expect(hint).toContainText('latency>0');
  await expect(hint).toContainText('no spaces around >');

  await input.fill('method:tools/list OR method:initialize');
  await expect(hint).toContainText('method:tools/list | method:initialize');
  await input.press('Escape'); // closes the suggestion list that lies over the status line
  await page.screenshot({ path: `${SCREENSHOTS}filter-syntax-hint.png` });
  await page.getByTestId('filter-hint-apply').click();
  await expect(input).toHaveValue('method:tools/list | method:initialize');
  await expect(hint).toHaveCount(0);
  await expect(rows(page)).toHaveCount(2);

  await input.fill('method:tools/call and status:business_error');
  await expect(hint).toContainText('a space means and');
  await input.press('Escape');
  await page.getByTestId('filter-hint-apply').click();
  await expect(rows(page)).toHaveCount(1);
});
