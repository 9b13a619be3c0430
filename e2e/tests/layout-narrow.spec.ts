// Narrow windows with the detail pane open: at 900 px the sidebar and the pane give up width so
// the timeline's Dir and Method stay readable; at 600 px the pane goes below the timeline, whose
// rows stay in view, and the page never scrolls sideways. At 1440 px the Widget tab holds a 768 px
// desktop widget whole.
import { expect, test, type Page } from '@playwright/test';
import { openDashboard, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { openWidget } from '../support/widget.js';

const proxy = mcpscopeForTests();

test.beforeAll(async () => {
  const client = await sdkClient(proxy.app.mcpUrl, 'narrow-client');
  await client.listTools();
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, recipient: 'Ada' } });
  await client.close();
});

/** Whether the text of the first row's cell in this column shows whole (not cut with an ellipsis). */
const whole = (page: Page, column: string) => page.locator(`[data-testid="exchange-row"][data-method="tools/list"] .col-${column}`).first().evaluate((el) => el.scrollWidth <= el.clientWidth);

for (const width of [900, 600]) {
  test(`${width} px with the pane open: Dir and Method whole, rows and pane both in view`, async ({ page }) => {
    await page.setViewportSize({ width, height: 760 });
    await openDashboard(page, proxy.app);
    await page.locator('[data-testid="exchange-row"][data-method="tools/list"]').first().click();
    await expect(page.getByTestId('detail-pane')).toBeVisible();
    await expect(page.locator('[data-testid="exchange-row"][data-method="tools/list"]').first()).toBeInViewport();
    expect(await whole(page, 'direction')).toBe(true);
    expect(await whole(page, 'method')).toBe(true);
    const { scroll, client } = await page.locator('html').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
    await page.screenshot({ path: `${SCREENSHOTS}layout-narrow-${width}.png` });
  });
}

test('1440 px with the Widget tab: the 768 px desktop widget shows whole, with no sideways scroll', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, proxy.app);
  await openWidget(page, 'suggest_gifts');
  const box = page.getByTestId('widget-box');
  await expect(box).toBeVisible();
  expect((await box.boundingBox())!.width).toBeGreaterThanOrEqual(768);
  // Neither the pane nor anything inside it scrolls sideways to show the widget.
  const sideways = await page.getByTestId('detail-pane').evaluate((pane) => [pane, ...pane.querySelectorAll('*')].filter((el) => el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(el.ownerDocument.defaultView?.getComputedStyle(el).overflowX ?? '')).map((el) => el.className || el.tagName));
  expect(sideways).toEqual([]);
  const paneRight = (await page.getByTestId('detail-pane').boundingBox())!;
  const boxRight = (await box.boundingBox())!;
  expect(boxRight.x + boxRight.width).toBeLessThanOrEqual(paneRight.x + paneRight.width);
});
