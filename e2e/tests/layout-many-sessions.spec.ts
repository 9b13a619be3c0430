// The page itself never scrolls: with many sessions only the sidebar, the table and the detail
// pane scroll, each inside its own box (the sidebar's screen-reader words included).
import { expect, test } from '@playwright/test';
import { openDashboard, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test.use({ viewport: { width: 1440, height: 900 } });

test('with ten sessions the document is exactly the window high', async ({ page }) => {
  for (let i = 0; i < 10; i++) {
    const client = await sdkClient(proxy.app.mcpUrl, `many-${i}`);
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: i } }).catch(() => undefined);
    await client.close();
  }
  await openDashboard(page, proxy.app);
  await expect(page.getByTestId('session-item')).toHaveCount(10);
  const heights = await page.evaluate(() => {
    const w = globalThis as unknown as { innerHeight: number; document: { scrollingElement: { scrollHeight: number } } };
    return { document: w.document.scrollingElement.scrollHeight, window: w.innerHeight };
  });
  expect(heights.document).toBe(heights.window);
  const sidebar = page.locator('.sidebar');
  expect(await sidebar.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
});
