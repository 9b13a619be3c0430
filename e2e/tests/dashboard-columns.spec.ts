// The timeline keeps its columns: fixed tracks (a long target moves nothing), the most telling
// columns kept when narrow or with the detail pane open, cut text with a tooltip, and columns
// the user resizes or hides remembered across a reload.
import { expect, test, type Page } from '@playwright/test';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, row, rows, sdkClient } from '../support/dashboard.js';

const proxy = mcpscopeForTests();
const LONG_URI = 'demo://resource/static/document/architecture.md';

test.beforeAll(async () => {
  const client = await sdkClient(proxy.app.mcpUrl, 'columns-client');
  await client.listTools();
  await client.readResource({ uri: 'gifts://catalog' }).catch(() => undefined);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50 } });
  // A long target: the server refuses the unknown URI, which is fine for the layout.
  await client.readResource({ uri: LONG_URI }).catch(() => undefined);
  await client.close();
});

/** Left edge of a column's cell in each row, and of its header. */
async function columnLefts(page: Page, column: string): Promise<number[]> {
  return page.locator(`[data-testid="timeline"] .col-${column}`).evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().left)));
}

test('columns sit in fixed tracks: a long target shifts no other column', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await openDashboard(page, proxy.app);
  await expect(row(page, 'resources/read')).toHaveCount(2);
  for (const column of ['id', 'status', 'latency']) {
    const lefts = await columnLefts(page, column);
    expect(new Set(lefts).size, `${column} starts at one x in every row and the header`).toBe(1);
  }
  const target = row(page, 'resources/read').filter({ hasText: 'demo://' }).locator('.col-target');
  await expect(target).toHaveAttribute('title', LONG_URI);
});

test('at 1024 px with the detail pane open, Method, Status and Dir stay in view', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openDashboard(page, proxy.app);
  await row(page, 'tools/call').click();
  await expect(page.getByTestId('detail-pane')).toBeVisible();
  const timeline = page.getByTestId('timeline');
  const box = (await timeline.boundingBox())!;
  for (const column of ['method', 'status', 'direction']) {
    const cell = row(page, 'tools/call').locator(`.col-${column}`);
    await expect(cell).toBeVisible();
    const b = (await cell.boundingBox())!;
    expect(b.x + b.width, `${column} ends inside the timeline`).toBeLessThanOrEqual(box.x + box.width + 1);
  }
  // The status badge sits in its own column, not after the target text.
  const status = (await row(page, 'tools/call').getByTestId('status-badge').boundingBox())!;
  const statusCell = (await row(page, 'tools/call').locator('.col-status').boundingBox())!;
  expect(status.x).toBeGreaterThanOrEqual(statusCell.x);
  await page.screenshot({ path: `${SCREENSHOTS}columns-1024-detail.png` });
});

test('a hidden column and a dragged width are remembered after a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await openDashboard(page, proxy.app);
  await page.getByTestId('columns-button').click();
  await page.getByTestId('column-toggle-session').uncheck();
  await expect(rows(page).first().locator('.col-session')).toHaveCount(0);
  const handle = page.getByTestId('resize-method');
  const before = (await page.locator('[role="columnheader"].col-method').boundingBox())!.width;
  const h = (await handle.boundingBox())!;
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(h.x + 120, h.y + h.height / 2, { steps: 5 });
  await page.mouse.up();
  const after = (await page.locator('[role="columnheader"].col-method').boundingBox())!.width;
  expect(after).toBeGreaterThan(before + 80);

  await page.reload();
  await expect(page.getByTestId('connection')).toHaveText('live');
  await expect(rows(page).first()).toBeVisible();
  await expect(rows(page).first().locator('.col-session')).toHaveCount(0);
  expect(Math.abs((await page.locator('[role="columnheader"].col-method').boundingBox())!.width - after)).toBeLessThan(2);
});
