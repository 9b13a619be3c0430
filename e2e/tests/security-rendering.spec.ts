// Captured content is data, never code: a server whose every string is HTML and <script> (tool
// names, descriptions, results, errors, resources, a text/html widget) goes through the tap, the
// dashboard shows all of it, and nothing runs — no dialog, no `window.__pwned` in any frame — while
// the page is served with a strict Content-Security-Policy.
import { expect, test, type Page } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { HOSTILE_TOOL, startHostileServer, WIDGET_URI } from '../../apps/proxy/test/reliability/fixtures/hostile-server.js';
import { writeReportSection, type ReportRow } from '../../apps/proxy/test/reliability/report-file.js';

let hostile: Awaited<ReturnType<typeof startHostileServer>>;
let app: RunningMcpscope;
const rows: ReportRow[] = [];

test.beforeAll(async () => {
  hostile = await startHostileServer();
  app = await runMcpscope(['--target', hostile.url]);
  // Every kind of hostile string goes through the tap before the dashboard opens.
  const client = new Client({ name: 'security-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
  await client.listTools();
  await client.callTool({ name: HOSTILE_TOOL, arguments: {} });
  await client.callTool({ name: HOSTILE_TOOL, arguments: { fail: 'business' } });
  await client.callTool({ name: HOSTILE_TOOL, arguments: { fail: 'protocol' } }).catch(() => undefined);
  await client.listResources();
  await client.readResource({ uri: WIDGET_URI });
  await client.listPrompts();
  await client.getPrompt({ name: 'anything' });
  await client.close();
});
test.afterAll(async () => {
  await app?.stop();
  await hostile?.close();
  writeReportSection('70-security-rendering', 'Security: the dashboard renders captured content inert (Chromium)', rows);
});

/**
 * `window.__pwned` in the page and in every frame it contains — except the widget preview's
 * frames, where the widget's own code is meant to run: on another origin (the widget sandbox
 * listener's `*.localhost` port), which `widgetOrigins` collects so the test can check it.
 */
async function pwnedAnywhere(page: Page, widgetOrigins: Set<string> = new Set()): Promise<string[]> {
  const marks: string[] = [];
  for (const frame of page.frames()) {
    const origin = await frame.evaluate(() => (globalThis as unknown as { location: { origin: string } }).location.origin).catch(() => undefined);
    if (origin && /^http:\/\/[a-z0-9-]+\.localhost:\d+$/.test(origin)) {
      widgetOrigins.add(origin);
      continue;
    }
    const mark = await frame.evaluate(() => (globalThis as { __pwned?: string }).__pwned).catch(() => undefined);
    if (mark !== undefined) marks.push(`${frame.url() || 'about:blank'}: ${mark}`);
  }
  return marks;
}

test('hostile tool names, results, errors and a text/html widget are shown as text and never run', async ({ page }) => {
  const row: ReportRow = {
    fault: 'a server with HTML/<script>/onerror payloads in tool names, titles, descriptions, schemas, results, errors, resource and prompt texts, and a text/html+skybridge widget; open the dashboard and click every exchange (and every tab in its detail pane), every session and every raw frame',
    expected: 'the payloads appear as text; no dialog opens; window.__pwned is unset in the page and every frame',
    observed: '(the test stopped before it got there)',
    result: 'FAIL',
  };
  rows.push(row);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(app.dashboardLoginUrl);
  await expect(page.getByTestId('connection')).toHaveText('live');
  const rowsLocator = page.getByTestId('exchange-row');
  await expect(rowsLocator.first()).toBeVisible();
  const count = await rowsLocator.count();
  // The hostile tool name is on screen as literal text, markup and all.
  await expect(page.getByText('pwn_tool<img src=x onerror=', { exact: false }).first()).toBeVisible();
  let tabsClicked = 0;
  for (let i = 0; i < Math.min(count, 30); i++) {
    await rowsLocator.nth(i).click();
    const detail = page.getByTestId('detail-pane');
    await expect(detail).toBeVisible();
    const tabs = detail.getByRole('tab');
    for (let t = 0; t < Math.min(await tabs.count(), 10); t++) {
      await tabs.nth(t).click();
      tabsClicked += 1;
    }
  }
  // The other views that show captured strings: the session list and the raw frames.
  const sessions = page.getByTestId('session-item');
  for (let i = 0; i < Math.min(await sessions.count(), 5); i++) await sessions.nth(i).click();
  let framesClicked = 0;
  const rawSwitch = page.getByTestId('raw-switch');
  if (await rawSwitch.count()) {
    await rawSwitch.click();
    const frameRows = page.getByTestId('frame-row');
    await expect(frameRows.first()).toBeVisible();
    for (let i = 0; i < Math.min(await frameRows.count(), 40); i++) {
      await frameRows.nth(i).click();
      framesClicked += 1;
    }
  }
  // Let any deferred payload (onerror after a failed image load, iframe onload) have its chance:
  // every image settled (loaded or broken) and every frame loaded. Not 'networkidle': Playwright
  // counts a Monaco worker script the editor dropped mid-load as pending for ever.
  await page.waitForFunction(() => Array.from((globalThis as unknown as { document: { images: ArrayLike<{ complete: boolean }> } }).document.images).every((img) => img.complete));
  for (const frame of page.frames()) await frame.waitForLoadState('load');
  // The hostile widget itself, previewed: its code runs, but only in the sandbox on its own origin.
  if (await rawSwitch.count()) await page.getByTestId('raw-switch').locator('xpath=..').getByRole('tab', { name: 'Exchanges' }).click();
  await page.locator('[data-testid="exchange-row"][data-method="tools/call"]').first().click();
  await page.getByTestId('detail-tab-widget').click();
  await expect(page.getByTestId('widget-log')).toContainText('finished loading');
  const widgetOrigins = new Set<string>();
  const pwned = await pwnedAnywhere(page, widgetOrigins);
  // The widget preview ran the widget's page: never on the dashboard's origin.
  expect(widgetOrigins.size).toBeGreaterThan(0);
  for (const origin of widgetOrigins) expect(origin).not.toBe(new URL(app.dashboardUrl).origin);
  row.observed = `${count} exchanges clicked, ${tabsClicked} detail tabs opened, ${framesClicked} raw frames clicked, ${page.frames().length} frame(s); dialogs: ${dialogs.length ? dialogs.join(', ') : 'none'}; window.__pwned: ${pwned.length ? pwned.join('; ') : 'unset everywhere'} outside the widget preview (which ran on ${widgetOrigins.size ? [...widgetOrigins].join(', ') : 'no origin: not opened'})`;
  await page.screenshot({ path: '../reports/screenshots/security-rendering.png' });
  expect(count).toBeGreaterThanOrEqual(8);
  expect(dialogs).toEqual([]);
  expect(pwned).toEqual([]);
  row.result = 'pass';
});

test('the dashboard sends a strict Content-Security-Policy', async ({ page }) => {
  const row: ReportRow = {
    fault: 'Content-Security-Policy of the dashboard page',
    expected: "script-src 'self' only (no 'unsafe-inline', no 'unsafe-eval', no hosts or schemes); object-src none via default-src 'self'; frame-ancestors 'none'; base-uri 'none'; frames only from the widget sandbox's own loopback port; nothing loaded from another origin",
    observed: '(the test stopped before it got there)',
    result: 'FAIL',
  };
  rows.push(row);
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(app.dashboardUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  const response = await page.goto(app.dashboardLoginUrl);
  const csp = response!.headers()['content-security-policy'] ?? '';
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0]!, d.slice(1)] as const));
  const scriptSrc = directives.get('script-src') ?? directives.get('default-src') ?? [];
  row.observed = `${csp}; requests to other origins: ${foreign.length}`;
  expect(scriptSrc).toEqual(["'self'"]);
  expect(csp).not.toContain('unsafe-eval');
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('object-src') ?? directives.get('default-src')).not.toContain('*');
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  expect(directives.get('base-uri')).toEqual(["'none'"]);
  // The one host source: widget previews, framed from the sandbox listener's own port (loopback).
  const frameSrc = directives.get('frame-src') ?? [];
  expect(frameSrc).toHaveLength(1);
  expect(frameSrc[0]).toMatch(/^http:\/\/\*\.localhost:\d+$/);
  expect(new URL(frameSrc[0]!.replace('*.', 'w.')).port).not.toBe(new URL(app.dashboardUrl).port);
  for (const [name, sources] of directives) if (name !== 'frame-src') for (const s of sources) expect(s, csp).not.toMatch(/^(\*|https?:|http:\/\/|https:\/\/)/);
  await expect(page.getByTestId('connection')).toHaveText('live');
  expect(foreign).toEqual([]);
  row.result = 'pass';
});
