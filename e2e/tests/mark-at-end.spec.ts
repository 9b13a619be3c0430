// A mark or a pause after the newest row draws its label under that row, in room the timeline
// keeps below its rows, never over the row itself.
import { expect, test, type Locator } from '@playwright/test';
import { openDashboard, row, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

test('the mark and pause pills after the last row do not cover it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl, 'mark-client');
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'one', budget: 60 } });
  const last = row(page, 'tools/call').last();
  await expect(last).toBeVisible();

  await page.getByTestId('capture-mark').click();
  await page.getByTestId('mark-label').fill('deployed v2');
  await page.getByTestId('mark-add').click();
  await page.getByTestId('capture-pause').click();
  const labels = page.getByTestId('timeline-mark-label');
  await expect(labels).toHaveCount(2);
  const rowBox = await box(last);
  for (const label of await labels.all()) {
    const pill = await box(label);
    expect(pill.y).toBeGreaterThanOrEqual(rowBox.y + rowBox.height - 1);
  }
  // The pills are inside the timeline's scroll area (reachable by scrolling), not cut off.
  const timeline = page.getByTestId('timeline');
  const scrollable = await timeline.evaluate((el) => el.scrollHeight);
  const top = (await box(timeline)).y;
  const scrolled = await timeline.evaluate((el) => el.scrollTop);
  for (const label of await labels.all()) {
    const pill = await box(label);
    expect(pill.y + pill.height - top + scrolled).toBeLessThanOrEqual(scrollable);
  }
  await page.getByTestId('capture-pause').click();
  await client.close();
});
