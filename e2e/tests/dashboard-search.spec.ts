// Free text searches bodies: the dashboard asks the capture (the API's own pushdown), shows the
// same rows the API returns, and searches on to the oldest exchange without asking for a click.
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { ExchangesPage } from '@mcpscope/protocol';
import { mcpscopeForTests, type RunningMcpscope } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, rows, sdkClient } from '../support/dashboard.js';

test.use({ viewport: { width: 1440, height: 860 } });

/** Every exchange the API matches for `filter`, following its cursors to the end. */
async function apiMatches(request: APIRequestContext, app: RunningMcpscope, filter: string): Promise<string[]> {
  const token = new URL(app.dashboardLoginUrl).searchParams.get('token');
  const ids: string[] = [];
  let before: number | undefined;
  do {
    const res = await request.get(`${app.dashboardUrl}/api/exchanges?filter=${encodeURIComponent(filter)}&limit=5000${before === undefined ? '' : `&before=${before}`}`, { headers: { authorization: `Bearer ${token}` } });
    const page = (await res.json()) as ExchangesPage;
    ids.push(...page.exchanges.map((ex) => ex.id));
    before = page.nextBefore;
  } while (before !== undefined);
  return ids.sort();
}

const shownIds = async (page: import('@playwright/test').Page) => (await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-id')!))).sort();

test.describe('free text in bodies', () => {
  const proxy = mcpscopeForTests();

  test.beforeAll(async () => {
    const client = await sdkClient(proxy.app.mcpUrl, 'search-client');
    // "zebra-anniversary" is only ever in a request body; "Cooking class" only in answers.
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'zebra-anniversary', budget: 500 } });
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'anniversary', budget: 500 } });
    await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 1 } });
    await client.close();
  });

  test('a word only a body holds finds the same rows the API finds, and new rows as they come', async ({ page, request }) => {
    await openDashboard(page, proxy.app);
    const input = page.getByTestId('filter-input');
    await input.fill('zebra-anniversary');
    const expected = await apiMatches(request, proxy.app, 'zebra-anniversary');
    expect(expected).toHaveLength(1);
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByTestId('search-note')).toHaveAttribute('data-search', 'done');
    expect(await shownIds(page)).toEqual(expected);
    await expect(page.getByTestId('filter-status')).toContainText('a body contains');

    // A quoted phrase from the server's answers.
    await input.fill('"Cooking class"');
    await expect(page.getByTestId('search-note')).toHaveAttribute('data-search', 'done');
    const answers = await apiMatches(request, proxy.app, '"Cooking class"');
    expect(answers.length).toBeGreaterThanOrEqual(2);
    await expect(rows(page)).toHaveCount(answers.length);
    expect(await shownIds(page)).toEqual(answers);
    await page.screenshot({ path: `${SCREENSHOTS}search-bodies.png` });

    // A call captured while the search is open is searched too.
    const client = await sdkClient(proxy.app.mcpUrl, 'search-client-2');
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 500 } });
    await client.close();
    await expect(rows(page)).toHaveCount(answers.length + 1);
    expect(await shownIds(page)).toEqual(await apiMatches(request, proxy.app, '"Cooking class"'));
  });
});

test.describe('a search with more matches than a page holds', () => {
  const proxy = mcpscopeForTests();

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const client = await sdkClient(proxy.app.mcpUrl, 'many-pings');
    for (let i = 0; i < 11; i++) await Promise.all(Array.from({ length: 100 }, () => client.ping()));
    await client.close();
  });

  test('goes on to the whole capture by itself, with no button to click, and shows the API\'s answer', async ({ page, request }) => {
    await openDashboard(page, proxy.app);
    // Every body carries "jsonrpc": more matches than one page of the API holds.
    await page.getByTestId('filter-input').fill('jsonrpc');
    const note = page.getByTestId('search-note');
    await expect(note).toHaveAttribute('data-search', 'done');
    await expect(page.getByTestId('search-more')).toHaveCount(0);
    const all = await apiMatches(request, proxy.app, 'jsonrpc');
    expect(all.length).toBeGreaterThan(1100);
    await expect(page.getByTestId('filter-status')).toContainText(`${all.length} of`);
    await page.screenshot({ path: `${SCREENSHOTS}search-whole.png` });
  });
});
