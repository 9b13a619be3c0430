// A panel that throws while rendering shows an error card in its place; the rest of the dashboard
// stays mounted and usable. The detail route's answer is damaged on the wire (as a proxy of
// another version could send it): the detail pane fails, the timeline and filter keep working.
import { expect, test } from '@playwright/test';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { openDashboard, row, rows, sdkClient } from '../support/dashboard.js';

const proxy = mcpscopeForTests();

test('a failing panel shows an error card and the rest stays usable', async ({ page }) => {
  const pageErrors: Error[] = [];
  page.on('pageerror', (err) => pageErrors.push(err));
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'wrap_gift', arguments: { gift: 'book', steps: 1 } });
  await client.close();

  // Every frame of the detail answer loses its body: rendering it throws.
  await page.route(/\/api\/exchanges\/[^/?]+$/, async (route) => {
    const answer = await route.fetch();
    const detail = (await answer.json()) as { frames: { raw: unknown }[] };
    for (const frame of detail.frames) frame.raw = { not: 'text' };
    await route.fulfill({ response: answer, json: detail });
  });
  await row(page, 'tools/call').click();
  const card = page.getByTestId('panel-error');
  await expect(card).toHaveAttribute('data-panel', 'the detail pane');
  await expect(card).toContainText('Something went wrong in the detail pane');

  // The page is still there: the timeline filters and its rows still open.
  await page.getByTestId('filter-input').fill('method:tools/list');
  await expect(rows(page)).toHaveCount(1);
  await page.unroute(/\/api\/exchanges\/[^/?]+$/);
  await row(page, 'tools/list').click();
  await expect(page.getByTestId('panel-error')).toHaveCount(0);
  await expect(page.getByTestId('detail-pane').getByTestId('frame-card')).toHaveCount(2);
  // The failure was caught by the boundary, so React never unmounted the page.
  expect(pageErrors.map((e) => e.message)).toEqual([]);
});
