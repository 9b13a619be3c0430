// Issue 23 items 5 and 12, in the replay panel and the filter bar, against the demo server
// through the tap with the official SDK client:
// - a session the client closed (DELETE) is marked ended in the sidebar; a session replay into
//   it is warned about, with "fresh session" offered right there; sent anyway, it is recorded as
//   one exchange with the server's own answer (-32001 Session not found), no transport_error row;
// - the panel words statuses as the timeline does ("tool error", not business_error), shows the
//   original's diagnostics, and closes on Esc (leaving the detail pane open);
// - a session chosen in the sidebar shows in the filter bar and its count, and Compose starts in it;
// - the fresh session a replay opens reads "↻ replay as <client>" in the sidebar, not as the client's own.
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openDashboard, row, rows, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test('a closed session is marked, and a replay into it is warned about with a fresh session offered', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, proxy.app);
  const transport = new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl));
  const client = new Client({ name: 'closing-client', version: '1.0.0' });
  await client.connect(transport);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'retirement', budget: 4 } });
  await transport.terminateSession();
  await client.close();

  await expect(page.getByTestId('session-item').filter({ hasText: 'closing-client' })).toContainText('(ended)');
  const failed = row(page, 'tools/call', 'business_error').last();
  await failed.click();
  await page.getByTestId('replay-button').click();
  const panel = page.getByTestId('replay-panel');
  await expect(panel.locator('.replay-what')).toContainText('tool error');
  await expect(panel.locator('.replay-what')).not.toContainText('business_error');
  const warning = page.getByTestId('replay-session-ended');
  await expect(warning).toContainText('the client closed it');
  await page.screenshot({ path: `${SCREENSHOTS}replay-session-ended.png` });

  // Sent anyway: one exchange, with the server's own answer, and no transport_error row.
  await page.getByTestId('replay-send').click();
  const result = page.getByTestId('replay-result');
  await expect(result).toHaveAttribute('data-status', 'protocol_error');
  const replayed = page.locator(`[data-testid="exchange-row"][data-id="${await result.getAttribute('data-exchange-id')}"]`);
  await expect(replayed.getByTestId('status-badge')).toContainText('-32001');
  await expect(page.locator('[data-testid="exchange-row"][data-status="transport_error"]')).toHaveCount(0);
  await expect(rows(page).getByTestId('replay-mark')).toHaveCount(1);
  await expect(page.getByTestId('replay-error')).toHaveAttribute('data-code', 'session_expired');

  await page.getByTestId('replay-use-fresh').click();
  await expect(page.getByTestId('replay-mode-fresh')).toBeChecked();
  await expect(warning).toHaveCount(0);
  await page.getByTestId('replay-send').click();
  await expect(page.getByTestId('replay-result')).toContainText('fresh session');
  await expect(page.getByTestId('replay-result')).toContainText('tool error');
  // The fresh session is mcpscope's, not the client's: the sidebar says so.
  const fresh = page.getByTestId('session-item').filter({ has: page.getByTestId('session-replay') });
  await expect(fresh).toHaveCount(1);
  await expect(fresh).toContainText('↻ replay as closing-client');

  // Esc closes the panel, not the detail pane behind it.
  await page.getByTestId('replay-result').click();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('detail-pane')).toBeVisible();
});

test('a chosen session shows in the filter bar and its count, and Compose starts in it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const client = await sdkClient(proxy.app.mcpUrl, 'scoped-client');
  await client.listTools();
  await openDashboard(page, proxy.app);
  const item = page.getByTestId('session-item').filter({ hasText: 'scoped-client' });
  await item.click();
  const scope = page.getByTestId('session-scope');
  await expect(scope).toContainText('scoped-client');
  const shown = await rows(page).count();
  await expect(page.getByTestId('filter-status')).toContainText(`Only scoped-client`);
  await expect(page.getByTestId('filter-status')).toContainText(`${shown} of`);

  await page.getByTestId('replay-compose').click();
  const chosen = await page.getByTestId('replay-session').inputValue();
  expect(chosen).toBe(await rows(page).first().getAttribute('data-session'));
  await expect(page.getByTestId('replay-mode-session')).toBeChecked();
  await page.screenshot({ path: `${SCREENSHOTS}session-scope-compose.png` });
  await page.keyboard.press('Escape');

  await scope.getByRole('button', { name: 'Show every session' }).click();
  await expect(scope).toHaveCount(0);
  await client.close();
});
