// The detail pane: bodies as a tree and as exact raw text, the HTTP layer, diagnostics, and the
// tool's inputSchema beside the arguments with the violation marked; driven by mouse and keys.
import { expect, test } from '@playwright/test';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, postJunk, row, sdkClient } from '../support/dashboard.js';

test.use({ viewport: { width: 1440, height: 900 } });

const proxy = mcpscopeForTests();

test('a failed tools/call shows its bodies, HTTP layer and the schema violation', async ({ page }) => {
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 'lots' } }).catch(() => undefined);

  await row(page, 'tools/call', 'protocol_error').click();
  const detail = page.getByTestId('detail-pane');
  await expect(page).toHaveURL(/[?&]x=/);
  const cards = detail.getByTestId('frame-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAttribute('data-role', 'request');
  await expect(cards.nth(1)).toHaveAttribute('data-role', 'response');
  await expect(cards.nth(1)).toContainText('+');
  await expect(detail.getByTestId('error-message')).toContainText('Invalid arguments for suggest_gifts');

  // HTTP layer: method, status, the session id header.
  const http = cards.nth(0).getByTestId('http-layer');
  await http.locator('summary').click();
  await expect(http).toContainText('POST /mcp');
  await expect(http).toContainText('mcp-session-id');

  // The tool's schema from this session's tools/list, with the bad argument marked.
  const schema = detail.getByTestId('tool-schema');
  await expect(schema.getByTestId('schema-verdict')).toContainText('$.params.arguments.budget expected number, got string');
  await expect(schema.locator('[data-path="$.budget"] .mark-note').first()).toContainText('expected number');
  await detail.evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}detail-schema.png` });

  // Raw text is exact: the request as the client sent it.
  await cards.nth(0).getByRole('tab', { name: 'Raw' }).click();
  await expect(cards.nth(0).getByTestId('raw-body')).toContainText('"budget":"lots"');
  await client.close();
});

test('captured markup is shown as text, never run', async ({ page }) => {
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl);
  const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  await client.callTool({ name: 'wrap_gift', arguments: { gift: evil, steps: 1 } });
  await row(page, 'tools/call').filter({ hasText: 'wrap_gift' }).last().click();
  const detail = page.getByTestId('detail-pane');
  await expect(detail.getByTestId('json-tree').first()).toContainText('<img src=x onerror=');
  await expect(detail.locator('img')).toHaveCount(0);
  expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
  await client.close();
});

test('a large body shows a preview stating its size, and the rest on demand', async ({ page }) => {
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl);
  const recipient = 'r'.repeat(300_000);
  const calls = row(page, 'tools/call').filter({ hasText: 'suggest_gifts' });
  const before = await calls.count();
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'retirement', budget: 90, recipient } });
  // Wait for this call's row: clicking `.last()` before it arrives would open an older call.
  await expect(calls).toHaveCount(before + 1);
  await calls.last().click();
  const request = page.getByTestId('detail-pane').getByTestId('frame-card').first();
  await request.getByRole('tab', { name: 'Raw' }).click();
  await expect(request.locator('.truncated-note')).toContainText('Showing the first 100.0 kB of 300.');
  const shown = async () => (await request.getByTestId('raw-body').textContent())!.length;
  expect(await shown()).toBe(100_000);
  await request.getByRole('button', { name: 'Show everything' }).click();
  await expect.poll(shown).toBeGreaterThan(300_000);
  await client.close();
});

test('an invalid frame shows its diagnostics; keys move, open and close', async ({ page }) => {
  await openDashboard(page, proxy.app);
  await postJunk(proxy.app.mcpUrl, 'GARBAGE <not json>');
  const invalid = page.locator('[data-testid="exchange-row"][data-status="invalid"]');
  await expect(invalid).toHaveCount(1);
  await invalid.click();
  const detail = page.getByTestId('detail-pane');
  await expect(detail.getByTestId('diagnostics')).toContainText(/invalid-message|1 finding/);
  await expect(detail.getByTestId('raw-body')).toHaveText('GARBAGE <not json>');

  // Esc closes; k moves up a row; Enter opens it; / focuses the filter.
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await page.keyboard.press('k');
  const selected = page.locator('[data-testid="exchange-row"][aria-selected="true"]');
  await expect(selected).toHaveCount(1);
  await expect(selected).not.toHaveAttribute('data-status', 'invalid');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('detail-pane')).toBeVisible();
  await page.keyboard.press('j');
  await expect(selected).toHaveAttribute('data-status', 'invalid');
  await page.keyboard.press('/');
  await expect(page.getByTestId('filter-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('filter-input')).not.toBeFocused();

  // Dark theme, remembered across reloads; and the raw view lists the junk as not JSON.
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: `${SCREENSHOTS}detail-dark.png` });
  await page.getByTestId('raw-switch').click();
  await expect(page.locator('[data-testid="frame-row"]').filter({ hasText: 'GARBAGE' }).first()).toContainText('not JSON');
  await page.screenshot({ path: `${SCREENSHOTS}raw-frames-dark.png` });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('raw-frames')).toBeVisible();
});
