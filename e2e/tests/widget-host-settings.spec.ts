// The preview as a host: every host setting (theme, display mode, locale, desktop or mobile
// width, max height) reaches the running widget through both bridges — window.openai's globals
// and the MCP Apps host context — without reloading it; the widget's console errors and uncaught
// exceptions land in the event log; its tool calls are refused exactly where a host refuses them
// (ui.visibility without "app"; window.openai.callTool without openai/widgetAccessible), with the
// reason, and never reach the server; and what no preview offers (resources/read, download) is
// answered "Method not found" and shown, not dropped. A widget that would render blank in a host
// says why above the preview.
import { expect, test, type Page } from '@playwright/test';
import { startWidgetServer, type WidgetServer } from '../../apps/proxy/test/support/widget-server.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { openDashboard, sdkClient } from '../support/dashboard.js';
import { PROBE_HTML } from '../support/probe-widget.js';
import { answerConsent, logEntries, openWidget, widgetFrame } from '../support/widget.js';

let server: WidgetServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  server = await startWidgetServer(
    [
      { tool: 'probe', uri: 'ui://probe/w.html', html: PROBE_HTML },
      // The classic blank widget: served as plain text/html, and a result without structuredContent.
      { tool: 'blank', uri: 'ui://probe/blank.html', html: '<p id="blank">rendered anyway</p>', mimeType: 'text/html', structured: () => undefined },
    ],
    [
      { name: 'model_only', meta: { ui: { visibility: ['model'] } } },
      { name: 'app_tool', meta: { ui: { visibility: ['app'] }, 'openai/widgetAccessible': true } },
      { name: 'plain' },
    ],
  );
  app = await runMcpscope(['--target', server.url]);
  const client = await sdkClient(app.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'probe', arguments: {} });
  await client.callTool({ name: 'blank', arguments: {} });
  await client.readResource({ uri: 'ui://probe/blank.html' });
  await client.close();
});
test.afterAll(async () => {
  await app?.stop();
  await server?.close();
});

/** What the widget shows as JSON in element `id`. */
async function shown(page: Page, id: string): Promise<Record<string, unknown>> {
  return JSON.parse((await widgetFrame(page).locator(`#${id}`).textContent())!) as Record<string, unknown>;
}

async function expectShown(page: Page, id: string, expected: Record<string, unknown>): Promise<void> {
  await expect.poll(() => shown(page, id)).toMatchObject(expected);
}

test('every host setting reaches the running widget on both bridges, without a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openDashboard(page, app);
  await openWidget(page, 'probe');
  const widget = widgetFrame(page);
  await expect(widget.locator('#mcp')).not.toHaveText('not initialized');
  const boot = await widget.locator('#boot').textContent();

  await expectShown(page, 'openai', { theme: 'light', displayMode: 'inline', locale: 'en-US', maxHeight: 500, device: 'desktop', safeBottom: 0 });
  await expectShown(page, 'mcp', { theme: 'light', displayMode: 'inline', locale: 'en-US', width: 768, maxHeight: 500, platform: 'web' });

  await page.getByTestId('widget-locale').selectOption('fr-FR');
  await expectShown(page, 'openai', { locale: 'fr-FR' });
  await expectShown(page, 'mcp', { locale: 'fr-FR' });

  await page.getByTestId('widget-device').getByRole('button', { name: 'mobile' }).click();
  await expectShown(page, 'openai', { device: 'mobile', safeBottom: 34 });
  await expectShown(page, 'mcp', { width: 375, platform: 'mobile' });
  // The frame itself is a phone's width.
  await expect.poll(async () => (await page.getByTestId('widget-box').boundingBox())?.width).toBe(375);

  await page.getByTestId('widget-max-height').fill('300');
  await expectShown(page, 'openai', { maxHeight: 300 });
  await expectShown(page, 'mcp', { maxHeight: 300 });

  await page.getByTestId('widget-theme').getByRole('button', { name: 'dark' }).click();
  await expectShown(page, 'openai', { theme: 'dark' });
  await expectShown(page, 'mcp', { theme: 'dark' });

  // On a phone, picture-in-picture is not offered (OpenAI: "coerced to fullscreen").
  await page.getByTestId('widget-display-mode').getByRole('button', { name: 'fullscreen' }).click();
  await expectShown(page, 'openai', { displayMode: 'fullscreen' });
  await expectShown(page, 'mcp', { displayMode: 'fullscreen' });
  await page.getByTestId('widget-exit').click();
  await expectShown(page, 'openai', { displayMode: 'inline' });

  await page.getByTestId('widget-device').getByRole('button', { name: 'desktop' }).click();
  await expectShown(page, 'mcp', { width: 768, platform: 'web', locale: 'fr-FR', maxHeight: 300, theme: 'dark' });

  // All of it reached the same document.
  await expect(widget.locator('#boot')).toHaveText(boot!);
  await expect(logEntries(page, 'host').filter({ hasText: 'host settings: locale "fr-FR"' })).toHaveCount(1);
});

test('the widget’s console errors and uncaught exceptions are in the event log', async ({ page }) => {
  await openDashboard(page, app);
  await openWidget(page, 'probe');
  await expect(logEntries(page, 'console').filter({ hasText: 'console.error: probe: a console error on load' })).toHaveCount(1);
  await expect(logEntries(page, 'error').filter({ hasText: 'uncaught: ' }).filter({ hasText: 'probe: an uncaught exception on load' })).toHaveCount(1);
});

test('tool calls are refused where a host refuses them, with the reason; what no preview offers is shown', async ({ page }) => {
  await openDashboard(page, app);
  await openWidget(page, 'probe');
  const widget = widgetFrame(page);
  await expect(widget.locator('#mcp')).not.toHaveText('not initialized');
  /** Clicks `button` to call `tool`; `allow`: the first call of the tool, which the dashboard asks about. */
  const call = async (button: string, tool: string, consent?: 'allow') => {
    await widget.locator('#answer').evaluate((e) => (e.textContent = ''));
    await widget.locator('#tool').fill(tool);
    await widget.locator(`#${button}`).click();
    if (consent) await answerConsent(page, tool, consent);
    await expect(widget.locator('#answer')).not.toHaveText('');
    return shown(page, 'answer');
  };

  // A model-only tool: refused on both bridges, never sent.
  expect(await call('mcp-call', 'model_only')).toMatchObject({ error: expect.stringContaining('without "app"') });
  expect(await call('openai-call', 'model_only')).toMatchObject({ error: expect.stringContaining('without "app"') });
  await expect(logEntries(page, 'refused').filter({ hasText: 'model_only' })).toHaveCount(2);
  expect(server.calls.get('model_only')).toBeUndefined();

  // A tool without openai/widgetAccessible: MCP Apps hosts call it, ChatGPT's window.openai does not.
  expect(await call('mcp-call', 'plain', 'allow')).toEqual({ ok: { tool: 'plain', args: { from: 'mcp-apps' } } });
  expect(await call('openai-call', 'plain')).toMatchObject({ error: expect.stringContaining('openai/widgetAccessible') });
  await expect(logEntries(page, 'refused').filter({ hasText: 'openai/widgetAccessible' })).toHaveCount(1);
  expect(server.calls.get('plain')).toBe(1);

  // An app-only, widget-accessible tool: both bridges reach the server.
  expect(await call('openai-call', 'app_tool', 'allow')).toEqual({ ok: { tool: 'app_tool', args: { from: 'openai' } } });
  expect(await call('mcp-call', 'app_tool')).toEqual({ ok: { tool: 'app_tool', args: { from: 'mcp-apps' } } });
  expect(server.calls.get('app_tool')).toBe(2);

  // Requests the preview's host capabilities leave out: the JSON-RPC answer, and a log entry.
  expect(await call('mcp-read', '')).toEqual({ error: 'Method not found: resources/read', code: -32601 });
  expect(await call('mcp-download', '')).toEqual({ error: 'Method not found: ui/download-file', code: -32601 });
  await expect(logEntries(page, 'refused').filter({ hasText: 'does not offer' })).toHaveCount(2);
  await expect(logEntries(page, 'refused').filter({ hasText: 'resources/read' })).toHaveCount(1);
});

test('the Widget tab says why a host would render the widget blank', async ({ page }) => {
  await openDashboard(page, app);
  await openWidget(page, 'blank');
  const lints = page.getByTestId('widget-lints').locator('li');
  await expect(lints).toHaveCount(2);
  await expect(lints.and(page.locator('[data-code="widget-mime-wrong"]'))).toContainText('served as "text/html"');
  await expect(lints.and(page.locator('[data-code="widget-result-without-structured-content"]'))).toContainText('no structuredContent');
  // The preview still runs it, so the user sees what the server sent.
  await expect(widgetFrame(page).locator('#blank')).toHaveText('rendered anyway');
});
