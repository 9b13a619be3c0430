// Filtering: the filter language narrows the list, explains itself, autocompletes from the
// registry and from captured values, marks errors at their position, and lives in the URL.
import { expect, test } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, row, rows, sdkClient } from '../support/dashboard.js';

test.use({ viewport: { width: 1440, height: 860 } });

let app: RunningMcpscope;
test.beforeAll(async () => {
  app = await runMcpscope();
  const a = await sdkClient(app.mcpUrl, 'agent-a');
  await a.listTools();
  await a.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50 } });
  await a.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'x' } }).catch(() => undefined);
  await a.close();
  const b = await sdkClient(app.mcpUrl, 'agent-b');
  await b.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 1 } });
  await b.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 1 } });
  await b.close();
});
test.afterAll(async () => {
  await app?.stop();
});

test('a filter narrows the list, explains itself and survives a reload', async ({ page }) => {
  await openDashboard(page, app);
  await expect(row(page, 'tools/call')).toHaveCount(4);
  const input = page.getByTestId('filter-input');
  await input.fill('status:err');
  await expect(rows(page)).toHaveCount(2);
  await expect(row(page, 'tools/call', 'protocol_error')).toHaveCount(1);
  await expect(row(page, 'tools/call', 'business_error')).toHaveCount(1);
  await expect(page.getByTestId('filter-status')).toContainText('2 of');
  await expect(page).toHaveURL(/[?&]q=status%3Aerr/);

  await page.reload();
  await expect(page.getByTestId('filter-input')).toHaveValue('status:err');
  await expect(rows(page)).toHaveCount(2);

  // The chip toggles the same term off again.
  await page.getByRole('button', { name: 'errors', exact: true }).click();
  await expect(page.getByTestId('filter-input')).toHaveValue('');
  await expect(row(page, 'tools/call')).toHaveCount(4);
});

test('autocomplete offers operators, then captured values; errors point at their position', async ({ page }) => {
  await openDashboard(page, app);
  const input = page.getByTestId('filter-input');
  await input.click();
  await input.pressSequentially('to');
  await expect(page.getByTestId('suggestions')).toContainText('tool:NAME');
  await input.press('Tab');
  await expect(input).toHaveValue('tool:');
  await input.pressSequentially('wr');
  await expect(page.getByTestId('suggestions')).toContainText('tool:wrap_gift');
  // Enter takes a suggestion only once the user moved into the list.
  await input.press('ArrowDown');
  await input.press('Enter');
  await expect(input).toHaveValue('tool:wrap_gift ');
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'tools/call')).toContainText('wrap_gift');
  await expect(page.getByTestId('filter-status')).toContainText('This filter means');
  await page.screenshot({ path: `${SCREENSHOTS}filter.png` });

  await input.fill('status:err | (');
  const status = page.getByTestId('filter-status');
  await expect(status).toContainText('Column');
  await expect(page.locator('.error-mark')).toBeVisible();
  // A broken filter does not blank the list while the user is still typing.
  await expect(row(page, 'tools/call')).toHaveCount(4);
});

test('Enter applies what is typed unless the user moved into the suggestions', async ({ page }) => {
  await openDashboard(page, app);
  const input = page.getByTestId('filter-input');
  await input.click();
  await input.pressSequentially('status:err');
  await expect(page.getByTestId('suggestions')).toBeVisible();
  await input.press('Enter');
  await expect(input).toHaveValue('status:err');
  await expect(page.getByTestId('suggestions')).toHaveCount(0);
  await expect(rows(page)).toHaveCount(2);
  await page.screenshot({ path: `${SCREENSHOTS}filter-enter.png` });

  // Moving into the list and pressing Enter takes the highlighted one.
  await input.fill('');
  await input.pressSequentially('status:pend');
  await expect(page.getByTestId('suggestions')).toContainText('status:pending');
  await input.press('ArrowDown');
  await input.press('Enter');
  await expect(input).toHaveValue('status:pending ');
});

test('a client: filter loaded from a link matches as when typed', async ({ page }) => {
  await openDashboard(page, app);
  await page.getByTestId('filter-input').fill('client:agent-b');
  await expect(row(page, 'tools/call')).toHaveCount(2);
  const typed = await rows(page).count();

  // "Copy link" / a reload: the filter comes from the URL, before any session is loaded.
  const url = new URL(app.dashboardLoginUrl);
  url.searchParams.set('q', 'client:agent-b');
  await page.goto(url.toString());
  await expect(page.getByTestId('filter-input')).toHaveValue('client:agent-b');
  await expect(row(page, 'tools/call')).toHaveCount(2);
  await expect(rows(page)).toHaveCount(typed);
  await page.screenshot({ path: `${SCREENSHOTS}filter-client-link.png` });
});

test('choosing a session in the sidebar narrows to it, in the URL too', async ({ page }) => {
  await openDashboard(page, app);
  const sessions = page.getByTestId('session-item');
  await expect(sessions).toHaveCount(2);
  await sessions.filter({ hasText: 'agent-b' }).click();
  await expect(row(page, 'tools/call')).toHaveCount(2);
  await expect(page).toHaveURL(/[?&]session=/);
  await page.reload();
  await expect(row(page, 'tools/call')).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'agent-b' })).toHaveAttribute('aria-pressed', 'true');
});

test('the follow pill counts only new rows the view shows: none for a cleared filter or hidden rows', async ({ page }) => {
  await openDashboard(page, app);
  const all = await rows(page).count();
  expect(all).toBeGreaterThan(3);
  // Moving the selection off the last row stops following; nothing new yet, so no pill.
  await page.locator('body').press('j');
  await page.locator('body').press('j');
  await expect(page.locator('.timeline [aria-selected="true"]')).toHaveCount(1);
  const follow = page.getByTestId('follow');
  await expect(follow).toHaveCount(0);
  // A cleared filter brings rows back; they are not new.
  const input = page.getByTestId('filter-input');
  await input.fill('client:agent-b');
  await expect(rows(page)).not.toHaveCount(all);
  const narrowed = await rows(page).count();
  await input.fill('');
  await expect(rows(page)).toHaveCount(all);
  await expect(follow).toHaveCount(0);

  // Rows the filter hides are not new in this view.
  await input.fill('client:agent-b');
  await expect(rows(page)).toHaveCount(narrowed);
  const c = await sdkClient(app.mcpUrl, 'agent-c');
  await c.listTools();
  await c.close();
  await expect(page.getByTestId('session-item').filter({ hasText: 'agent-c' })).toHaveCount(1);
  await expect(follow).toHaveCount(0);

  const b = await sdkClient(app.mcpUrl, 'agent-b');
  await b.listTools();
  await b.close();
  await expect(follow).toHaveText(/↓ [1-9]\d* new — follow new rows/);
  await page.screenshot({ path: `${SCREENSHOTS}follow-new-rows.png` });
});
