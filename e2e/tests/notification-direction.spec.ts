// Issue 23 item 10: a notification says who sent it. The client's notifications/initialized reads
// C → S and the server's notifications/message (a log line sent during a tools/call) reads S → C,
// instead of both showing "—"; the Legend explains the Dir marks, "—" and "△ N".
import { expect, test } from '@playwright/test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

/** A server that logs to the client while it answers (notifications/message on the call's stream). */
function loggingServer(): McpServer {
  const server = new McpServer({ name: 'chatty', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('work', { inputSchema: { job: z.string() } }, async ({ job }, extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `working on ${job}` } });
    return { content: [{ type: 'text', text: `${job} done` }] };
  });
  return server;
}

let upstream: SdkServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  upstream = await startSdkServer(loggingServer, 'stateless');
  app = await runMcpscope(['--target', upstream.url]);
  const client = await sdkClient(app.mcpUrl, 'dir-client');
  await client.callTool({ name: 'work', arguments: { job: 'report' } });
  await client.close();
});

test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

test('notifications show their direction, and the Legend explains —, the arrows and △ N', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  await openDashboard(page, app);
  const initialized = row(page, 'notifications/initialized');
  const logged = row(page, 'notifications/message');
  await expect(initialized).toHaveCount(1);
  await expect(logged).toHaveCount(1);
  await expect(initialized.locator('.col-direction')).toHaveText('C → S');
  await expect(logged.locator('.col-direction')).toHaveText('S → C');
  await expect(logged.locator('.col-direction span')).toHaveAttribute('title', /notification sent by the server/);
  // A request keeps its arrow too.
  await expect(row(page, 'tools/call').locator('.col-direction')).toHaveText('C → S');

  await page.getByTestId('legend-button').click();
  const marks = page.getByTestId('legend-marks');
  await expect(marks).toContainText('—');
  await expect(marks).toContainText('not a JSON-RPC message');
  await expect(marks).toContainText('△ N');
  await expect(marks).toContainText('diagnostics');
  await expect(marks).toContainText('S → C');
  await page.screenshot({ path: `${SCREENSHOTS}notification-direction-legend.png` });
});
