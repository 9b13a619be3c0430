// Widgets that misbehave: a 5 MB resource, a document that never finishes loading (a script
// from a server that never answers), and floods of messages — 10,000 a second through the bridge
// or straight at the dashboard (a runaway: the preview stops it), 1,000 a second through the
// bridge (throttled by the sandbox, kept running). Each is previewed; the dashboard stays usable
// throughout (the cost on its frame time is measured by bench/widget-flood.ts), and what went
// wrong is in the event log.
import { createServer, type Server, type Socket } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { startWidgetServer, type WidgetServer } from '../../apps/proxy/test/support/widget-server.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { openDashboard, sdkClient } from '../support/dashboard.js';
import { logEntries, openWidget, widgetFrame } from '../support/widget.js';
import { bigWidgetHtml, floodWidgetHtml } from '../support/bad-widgets.js';

// Tracing snapshots every frame's DOM on every action: with a 60,000-element widget that alone
// takes seconds per step (measured: the 5 MB widget's test went from 19 s to 95 s). Screenshots stay.
test.use({ trace: 'off' });

let server: WidgetServer;
let app: RunningMcpscope;
let hang: Server;
const sockets = new Set<Socket>();

test.beforeAll(async () => {
  hang = createServer((socket) => {
    sockets.add(socket); // accepted, never answered
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  const hangOrigin = `http://127.0.0.1:${(hang.address() as { port: number }).port}`;
  server = await startWidgetServer([
    { tool: 'big', uri: 'ui://bad/big.html', html: bigWidgetHtml(5 * 1024 * 1024) },
    {
      tool: 'hang',
      uri: 'ui://bad/hang.html',
      html: `<!doctype html><p id="before">before the script that never arrives</p><script src="${hangOrigin}/never.js"></script><p>after it</p>`,
      resourceMeta: { ui: { csp: { resourceDomains: [hangOrigin] } } },
    },
    { tool: 'flood_bridge', uri: 'ui://bad/flood-bridge.html', html: floodWidgetHtml('bridge') },
    { tool: 'flood_around', uri: 'ui://bad/flood-around.html', html: floodWidgetHtml('around') },
    { tool: 'busy', uri: 'ui://bad/busy.html', html: floodWidgetHtml('bridge', 1000) },
  ]);
  app = await runMcpscope(['--target', server.url]);
  const client = await sdkClient(app.mcpUrl);
  await client.listTools();
  for (const tool of ['big', 'hang', 'flood_bridge', 'flood_around', 'busy']) await client.callTool({ name: tool, arguments: {} });
  await client.close();
});
test.afterAll(async () => {
  await app?.stop();
  await server?.close();
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => (hang ? hang.close(() => r()) : r()));
});

/** The dashboard still does what the user asks, the widget running beside: switch the theme, filter the timeline. */
async function stillResponsive(page: Page): Promise<void> {
  const html = page.locator('html');
  const before = await html.getAttribute('data-theme');
  await page.getByTestId('theme-toggle').click();
  await expect(html).not.toHaveAttribute('data-theme', before ?? '');
  await page.getByTestId('theme-toggle').click();
  await expect(html).toHaveAttribute('data-theme', before ?? '');
  await page.getByTestId('filter-input').fill('method:tools/list');
  await expect(page.getByTestId('exchange-row')).toHaveCount(1);
  await page.getByTestId('filter-input').fill('');
  await page.getByTestId('filter-input').press('Escape');
  await page.getByTestId('filter-input').blur();
  await expect(page.getByTestId('suggestions')).toHaveCount(0);
  await expect(page.getByTestId('widget-frame')).toBeVisible();
}

test('a 5 MB widget renders and the dashboard stays usable', async ({ page }) => {
  await openDashboard(page, app);
  await openWidget(page, 'big');
  await expect(page.getByTestId('widget-source')).toContainText('5,24');
  await expect(widgetFrame(page).locator('#end')).toHaveText('end of the 5 MB widget', { timeout: 30_000 });
  await stillResponsive(page);
});

test('a widget that never finishes loading is reported, and the dashboard stays usable', async ({ page }) => {
  await openDashboard(page, app);
  await openWidget(page, 'hang');
  await expect(widgetFrame(page).locator('#before')).toBeVisible();
  await expect(logEntries(page, 'host').filter({ hasText: 'has not finished loading after 5 s' })).toHaveCount(1, { timeout: 20_000 });
  await expect(logEntries(page, 'host').filter({ hasText: 'finished loading in' })).toHaveCount(0);
  await stillResponsive(page);
});

test('a runaway widget (10,000 messages a second, either way) is stopped; a busy one is throttled; the dashboard stays usable', async ({ page }) => {
  await openDashboard(page, app);
  for (const tool of ['flood_bridge', 'flood_around']) {
    await openWidget(page, tool);
    await expect(page.getByTestId('widget-stopped')).toBeVisible();
    await expect(logEntries(page, 'error').filter({ hasText: 'mcpscope stopped it so the dashboard stays usable' })).toHaveCount(1);
    await stillResponsive(page);
  }
  // 1,000 a second through the bridge: the sandbox passes 300 a second and says what it dropped.
  await openWidget(page, 'busy');
  await expect(widgetFrame(page).locator('#sent')).not.toHaveText('0');
  await expect(logEntries(page, 'flood').filter({ hasText: 'the sandbox dropped' }).first()).toBeVisible();
  await expect(page.getByTestId('widget-stopped')).toHaveCount(0);
  await stillResponsive(page);
  // The log stays bounded however long the widget keeps at it.
  await expect(logEntries(page, 'log').first()).toBeVisible();
  expect(await logEntries(page).count()).toBeLessThanOrEqual(500);
});
