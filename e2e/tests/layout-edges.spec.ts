// Issue 23 item 12, the layout edges at a 1024-px window: the top bar wraps instead of pushing the
// connection status off-screen; the first-run snippets scroll inside their boxes; the detail header
// keeps a long target on one cut line beside the method with its status badge unwrapped, never
// under the buttons, and neither a long tool name's filter chip nor its schema note widens the
// page; the export menu's session dropdown stays inside its panel.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openDashboard, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test.use({ viewport: { width: 1024, height: 760 } });

/** The page itself never scrolls sideways: whatever is wide scrolls inside its own box. */
async function expectNoPageOverflow(page: Page): Promise<void> {
  const { scroll, client } = await page.locator('html').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

test('first-run snippets scroll inside their boxes', async ({ page }) => {
  await openDashboard(page, proxy.app);
  const first = page.getByTestId('first-run');
  await expect(first).toContainText('Nothing captured yet');
  await expectNoPageOverflow(page);
  await expect(page.getByTestId('connection')).toBeInViewport();
  const outer = await box(first);
  for (const pre of await first.locator('.snippet pre').all()) {
    const b = await box(pre);
    expect(b.x + b.width).toBeLessThanOrEqual(outer.x + outer.width + 1);
  }
  await page.screenshot({ path: `${SCREENSHOTS}layout-first-run-1024.png` });
});

test('a long target is cut on the title line, the badge stays whole, the buttons keep their own space', async ({ page }) => {
  const client = await sdkClient(proxy.app.mcpUrl, 'layout-client');
  const longName = `lookup_${'very_long_tool_name_'.repeat(8)}end`;
  await client.callTool({ name: longName, arguments: {} }).catch(() => undefined);
  await client.close();
  await openDashboard(page, proxy.app);
  await page.locator('[data-testid="exchange-row"][data-method="tools/call"]').last().click();
  const title = page.locator('.detail-title');
  const target = title.locator('.target');
  await expect(target).toHaveText(longName);
  const badge = title.getByTestId('status-badge');
  const method = title.locator('strong');
  const [t, b, m] = [await box(target), await box(badge), await box(method)];
  // One line: the method, the cut target and the badge share a row.
  expect(Math.abs(t.y + t.height / 2 - (m.y + m.height / 2))).toBeLessThan(4);
  expect(Math.abs(b.y + b.height / 2 - (m.y + m.height / 2))).toBeLessThan(4);
  expect(await target.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(target).toHaveAttribute('title', longName);
  // The badge did not wrap: one line of text high.
  expect(await badge.evaluate((el) => el.getClientRects().length)).toBe(1);
  // The buttons sit beside the title or on their own line below it, never over it.
  const actions = await box(page.getByTestId('replay-button'));
  const overlaps = actions.y < t.y + t.height && actions.y + actions.height > t.y && actions.x < t.x + t.width && actions.x + actions.width > t.x;
  expect(overlaps).toBe(false);
  await expectNoPageOverflow(page);
  const detail = await box(page.getByTestId('detail-pane'));
  expect(await page.getByTestId('detail-pane').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(detail.x + detail.width).toBeLessThanOrEqual(1024);
  await page.screenshot({ path: `${SCREENSHOTS}layout-detail-head-1024.png` });
});

test('the export menu\'s session dropdown stays inside its panel', async ({ page }) => {
  await openDashboard(page, proxy.app);
  await page.getByTestId('export-menu-button').click();
  const panel = page.getByTestId('export-panel');
  const select = panel.locator('select[aria-label="Session"]');
  const [p, s] = [await box(panel), await box(select)];
  expect(s.x + s.width).toBeLessThanOrEqual(p.x + p.width + 1);
  await page.screenshot({ path: `${SCREENSHOTS}layout-export-1024.png` });
});
