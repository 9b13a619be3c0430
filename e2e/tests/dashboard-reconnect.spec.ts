// A dropped WebSocket: the banner says so, and on reconnection the dashboard resumes from the
// last sequence number it applied: calls made while it was down appear, none twice, none missing.
// An exchange that could not be loaded while the proxy was unreachable loads once it is back.
import { expect, test, type WebSocketRoute } from '@playwright/test';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { openDashboard, rows, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';

const proxy = mcpscopeForTests();

test('a dropped WebSocket resumes with no gap and no duplicate', async ({ page }) => {
  let blocked = false;
  const sockets: WebSocketRoute[] = [];
  const urls: string[] = [];
  await page.routeWebSocket(/\/ws\?/, (ws) => {
    urls.push(ws.url());
    if (blocked) {
      ws.close({ code: 1011, reason: 'test: network down' });
      return;
    }
    ws.connectToServer();
    sockets.push(ws);
  });
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50 } });
  await expect(row(page, 'tools/call', 'ok')).toHaveCount(1);

  blocked = true;
  await sockets.at(-1)!.close({ code: 1006, reason: 'test: drop' });
  await expect(page.getByTestId('connection-banner')).toBeVisible();
  await expect(page.getByTestId('connection')).toHaveText('down');

  // Traffic while the dashboard is blind.
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 80 } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 1 } });
  await client.listTools();
  await expect(row(page, 'tools/call')).toHaveCount(1);

  blocked = false;
  await expect(page.getByTestId('connection')).toHaveText('live', { timeout: 15_000 });
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  await expect(row(page, 'tools/call')).toHaveCount(3);
  await expect(row(page, 'tools/call', 'business_error')).toHaveCount(1);
  await expect(row(page, 'tools/list')).toHaveCount(1);

  // The reconnecting socket asked to resume after a sequence number, not from scratch.
  expect(urls.at(-1)).toMatch(/after=[1-9]\d*/);
  // Exactly what the server has: same ids, each once.
  const api = await page.request.get(`${proxy.app.dashboardUrl}/api/exchanges`, { headers: { authorization: `Bearer ${new URL(proxy.app.dashboardLoginUrl).searchParams.get('token')}` } });
  const expected = ((await api.json()) as { exchanges: { id: string }[] }).exchanges.map((e) => e.id).sort();
  const shown = (await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-id')!))).sort();
  expect(shown).toEqual(expected);
  await client.close();
});

test('a detail that failed while the proxy was unreachable loads on reconnection', async ({ page }) => {
  let down = false;
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/ws\?/, (ws) => {
    if (down) {
      ws.close({ code: 1011, reason: 'test: network down' });
      return;
    }
    ws.connectToServer();
    sockets.push(ws);
  });
  // While down, the API is unreachable too, as when the proxy is stopped.
  await page.route(/\/api\/exchanges\/[^/?]+(\?.*)?$/, (route) => (down ? route.abort('connectionrefused') : route.continue()));
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'graduation', budget: 30 } });
  const token = new URL(proxy.app.dashboardLoginUrl).searchParams.get('token');
  // The call is stored within a tick of its answer (about 5 ms, plus the write before it), not
  // before the client has it: wait for it as a dashboard would.
  let id: string | undefined;
  await expect
    .poll(async () => {
      const found = await page.request.get(`${proxy.app.dashboardUrl}/api/exchanges?filter=graduation`, { headers: { authorization: `Bearer ${token}` } });
      id = ((await found.json()) as { exchanges: { id: string }[] }).exchanges[0]?.id;
      return id;
    })
    .toBeDefined();
  const call = page.locator(`[data-testid="exchange-row"][data-id="${id}"]`);
  await expect(call).toBeVisible();

  down = true;
  await sockets.at(-1)!.close({ code: 1006, reason: 'test: drop' });
  await expect(page.getByTestId('connection')).toHaveText('down');
  await call.click();
  const detail = page.getByTestId('detail-pane');
  await expect(detail).toContainText('Could not load exchange');

  down = false;
  await expect(page.getByTestId('connection')).toHaveText('live', { timeout: 15_000 });
  await expect(detail).not.toContainText('Could not load exchange');
  await expect(detail).toContainText('graduation');
  await page.screenshot({ path: `${SCREENSHOTS}detail-after-reconnect.png` });
  await client.close();
});
