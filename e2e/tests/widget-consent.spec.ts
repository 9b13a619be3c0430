// A widget acts on the live server only with the user's word, and a capture file's widget never
// does: the first time a widget calls a tool, the dashboard asks "This widget wants to call TOOL
// on SERVER" — Deny, and the server never sees the call (nor a second try, which is not asked
// again); Reload, Allow, and it is sent. A call imported from a file renders from that file
// alone, says so, and sends nothing, however its widget asks.
import { expect, test } from '@playwright/test';
import { startWidgetServer, type WidgetServer } from '../../apps/proxy/test/support/widget-server.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { openDashboard, sdkClient } from '../support/dashboard.js';
import { PROBE_HTML } from '../support/probe-widget.js';
import { answerConsent, logEntries, widgetFrame } from '../support/widget.js';

const URI = 'ui://probe/w.html';
let server: WidgetServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  server = await startWidgetServer([{ tool: 'probe', uri: URI, html: PROBE_HTML }], [{ name: 'delete_everything', meta: { 'openai/widgetAccessible': true } }]);
  app = await runMcpscope(['--target', server.url]);
  const client = await sdkClient(app.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'probe', arguments: {} });
  await client.readResource({ uri: URI });
  await client.close();
});
test.afterAll(async () => {
  await app?.stop();
  await server?.close();
});

/** Opens the Widget tab of the probe call in a live (or imported) session. */
async function openProbe(page: import('@playwright/test').Page, imported: boolean): Promise<void> {
  const rows = page.locator('[data-testid="exchange-row"][data-method="tools/call"]').filter({ hasText: 'probe' });
  await (imported ? rows.and(page.locator('[data-session^="import:"]')) : rows.and(page.locator(':not([data-session^="import:"])'))).first().click();
  await page.getByTestId('detail-tab-widget').click();
  await expect(page.getByTestId('widget-frame')).toBeVisible();
}

test('a widget’s first call of a tool asks the user: Deny sends nothing, Allow sends it', async ({ page }) => {
  await openDashboard(page, app);
  await openProbe(page, false);
  await expect(page.getByTestId('widget-provenance')).toHaveText('(captured in this session)');
  const widget = widgetFrame(page);
  await expect(widget.locator('#mcp')).not.toHaveText('not initialized');
  const deleteEverything = async () => {
    await widget.locator('#answer').evaluate((e) => (e.textContent = ''));
    await widget.locator('#tool').fill('delete_everything');
    await widget.locator('#mcp-call').click();
  };
  const answer = () => widget.locator('#answer');

  await deleteEverything();
  const prompt = page.getByTestId('widget-consent');
  await expect(prompt).toContainText(`This widget wants to call delete_everything on ${server.url}`);
  await answerConsent(page, 'delete_everything', 'deny');
  await expect(answer()).toContainText('you denied delete_everything');
  // Asked once: a second try is refused without asking again.
  await deleteEverything();
  await expect(answer()).toContainText('you denied delete_everything');
  await expect(prompt).toHaveCount(0);
  await expect(logEntries(page, 'refused').filter({ hasText: 'you denied delete_everything' })).toHaveCount(2);
  expect(server.calls.get('delete_everything')).toBeUndefined();

  // Reload runs the widget again, which asks again; Allow sends the call.
  await page.getByTestId('widget-reload').click();
  await expect(widget.locator('#mcp')).not.toHaveText('not initialized');
  await deleteEverything();
  await answerConsent(page, 'delete_everything', 'allow');
  await expect(answer()).toContainText('"tool":"delete_everything"');
  expect(server.calls.get('delete_everything')).toBe(1);
  await expect(logEntries(page, 'consent').filter({ hasText: 'you allowed the widget to call delete_everything' })).toHaveCount(1);
});

test('an imported call’s widget renders from its file and sends nothing', async ({ page }) => {
  const token = new URL(app.dashboardLoginUrl).searchParams.get('token')!;
  const auth = { authorization: `Bearer ${token}` };
  const jsonl = await (await fetch(`${app.dashboardUrl}/api/export?format=jsonl`, { headers: auth })).text();
  expect((await fetch(`${app.dashboardUrl}/api/import?name=shared.jsonl`, { method: 'POST', headers: auth, body: jsonl })).status).toBe(200);
  const before = server.requestCount();

  await openDashboard(page, app);
  await openProbe(page, true);
  await expect(page.getByTestId('widget-provenance')).toHaveText('(imported from shared.jsonl, same session)');
  await expect(page.getByTestId('widget-cannot-call')).toContainText('imported from shared.jsonl');
  const widget = widgetFrame(page);
  await expect(widget.locator('#mcp')).not.toHaveText('not initialized');
  await widget.locator('#tool').fill('delete_everything');
  await widget.locator('#mcp-call').click();
  await expect(widget.locator('#answer')).toContainText('sends nothing to a live server');
  await expect(logEntries(page, 'refused').filter({ hasText: 'sends nothing to a live server' })).toHaveCount(1);
  await expect(page.getByTestId('widget-consent')).toHaveCount(0);
  // The playground cannot read the widget from the live server for it either.
  await expect(page.getByTestId('playground-read-live')).toBeDisabled();
  expect(server.requestCount()).toBe(before);
});
