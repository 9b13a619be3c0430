// Export and import in real Chromium: a page talks MCP through the tap with fetch while Chromium
// records a HAR; that HAR, imported from the dashboard's menu, shows the exchanges. The menu says
// what will be redacted before a download, and the downloaded file carries no secret; `mcpscope
// open` shows an export with no proxy. The tests share one mcpscope and run in order.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { mcpscopeForTests, runOpen } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

const SECRET = 'ak-e2e-SECRET-0123456789';

/** Runs in the page: an MCP client written with nothing but fetch, as a web app would. */
async function talkMcp({ secret }: { secret: string }): Promise<string[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = async (body: object) => {
    const res = await fetch('/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
    const sid = res.headers.get('mcp-session-id');
    if (sid) headers['mcp-session-id'] = sid;
    return `${res.status} ${await res.text()}`;
  };
  const out: string[] = [];
  out.push(await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'har-page', version: '1.0.0' } } }));
  headers['mcp-protocol-version'] = '2025-06-18';
  out.push(await post({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  out.push(await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, api_key: secret } } }));
  out.push(await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'wrap_gift', arguments: { gift: 'mug', steps: 2 }, _meta: { progressToken: 'p1' } } }));
  return out;
}

test('a HAR recorded by Chromium imports from the dashboard menu and shows the exchanges', async ({ browser, page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-har-'));
  const harPath = join(dir, 'chromium.har');
  const tapOrigin = new URL(proxy.app.mcpUrl).origin;
  const recording = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } });
  const client = await recording.newPage();
  await client.goto(`${tapOrigin}/`); // any page of the tap's origin: fetch('/mcp') is then same-origin
  const answers = await client.evaluate(talkMcp, { secret: SECRET });
  expect(answers[2]).toContain('Gift ideas');
  expect(answers[3]).toContain('notifications/progress');
  await recording.close(); // writes the HAR

  const har = JSON.parse(readFileSync(harPath, 'utf8'));
  expect(har.log.creator.name).toBe('Playwright');

  await page.goto(proxy.app.dashboardLoginUrl);
  await expect(page.getByTestId('connection')).toHaveText('live');
  // The live capture already holds the page's four requests; the import adds them again as its own session.
  const calls = page.locator('[data-testid="exchange-row"][data-method="tools/call"]');
  await expect(calls).toHaveCount(2);
  await page.getByTestId('export-menu-button').click();
  await page.getByTestId('import-input').setInputFiles(harPath);
  await expect(page.getByTestId('import-report')).toContainText(/Imported \d+ frames from chromium\.har into 1 read-only session/);
  await expect(calls).toHaveCount(4);
  await expect(page.locator('[data-testid="exchange-row"][data-method="tools/call"][data-status="ok"]')).toHaveCount(4);
  await expect(page.locator('[data-testid="exchange-row"][data-method="initialize"]')).toHaveCount(2);
  await page.screenshot({ path: '../reports/screenshots/export-import.png' });

  // An imported session is read-only: replaying into it is refused in the panel, which offers a
  // fresh session instead. Nothing is sent, so the counts the next test relies on stay.
  await page.keyboard.press('Escape'); // the export menu covers the timeline
  await expect(page.getByTestId('export-menu-button')).toHaveAttribute('aria-expanded', 'false');
  await calls.nth(2).click();
  await page.getByTestId('replay-button').click();
  await expect(page.getByTestId('replay-editor').locator('.view-lines')).toContainText('tools/call', { timeout: 20_000 });
  await expect(page.getByTestId('replay-mode-session')).toBeChecked();
  await page.getByTestId('replay-send').click();
  const refusal = page.getByTestId('replay-error');
  await expect(refusal).toHaveAttribute('data-code', 'imported_session');
  await expect(refusal).toContainText('was imported from a file');
  await expect(page.getByTestId('replay-retry-fresh')).toBeVisible();
  await page.getByTestId('replay-close').click();
  await expect(calls).toHaveCount(4);
});

test('the menu says what it will redact before the download, and the file holds no secret', async ({ page }) => {
  await page.goto(proxy.app.dashboardLoginUrl);
  await page.getByTestId('export-menu-button').click();
  const preview = page.getByTestId('export-preview');
  await expect(preview).toContainText('will be replaced by [redacted]');
  await expect(preview).toContainText('key api_key');
  // Two sessions so far (the page's, and its imported HAR): one of them holds half the rows.
  await expect(preview).toContainText(/^8 exchanges/);
  await page.getByRole('radio', { name: /One session/ }).check();
  await expect(preview).toContainText(/^4 exchanges/);
  await page.getByRole('radio', { name: /Everything captured/ }).check();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  expect(download.suggestedFilename()).toMatch(/^mcpscope-.*\.jsonl$/);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ format: 'mcpscope-jsonl', redaction: { enabled: true } });
  expect(text).toContain('suggest_gifts');
  expect(text).not.toContain(SECRET);

  // The opt-in is explicit and the menu says what it means.
  await page.getByTestId('export-unredacted').check();
  await expect(preview).toContainText('Unredacted');
  await expect(page.getByTestId('export-download')).toHaveText('Download unredacted JSONL');
  await page.getByRole('radio', { name: /HAR 1\.2/ }).check();
  const [har] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  expect(har.suggestedFilename()).toMatch(/\.har$/);
  expect(readFileSync((await har.path())!, 'utf8')).toContain(SECRET);
  await page.screenshot({ path: '../reports/screenshots/export-menu.png' });
});

test('mcpscope open FILE serves the dashboard over an export, with no proxy running', async ({ page, request }) => {
  const res = await request.get(`${proxy.app.dashboardUrl}/api/export?format=jsonl`, { headers: { authorization: `Bearer ${new URL(proxy.app.dashboardLoginUrl).searchParams.get('token')}` } });
  expect(res.status()).toBe(200);
  const file = join(mkdtempSync(join(tmpdir(), 'mcpscope-open-')), 'shared.jsonl');
  writeFileSync(file, await res.text());

  const opened = await runOpen(file);
  try {
    expect(opened.output()).toMatch(/Imported:\s+\d+ frames in 2 session\(s\)/);
    await page.goto(opened.dashboardLoginUrl);
    await expect(page.locator('[data-testid="exchange-row"][data-method="tools/call"][data-status="ok"]')).toHaveCount(4);
    expect(opened.output()).not.toContain('Tap (point your MCP client here)');
  } finally {
    opened.stop();
  }
});
