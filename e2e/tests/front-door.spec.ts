// The front door in Chromium. ChatGPT's first connection through a tunnel to a tap started without
// --public-url: the tunnel delivers `Host: brave-otter.trycloudflare.com`, the tap refuses it, and
// the Exchanges view says so at once (client, count, address, the flag to restart with) and the
// user accepts the Host for this run in one click, after which ChatGPT's next request gets
// through. And an OAuth 401 reads as "authorization required", one click from its connection story.
import { request } from 'node:http';
import { expect, test } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { openDashboard, row } from '../support/dashboard.js';
import { startSdkOAuthServer, type SdkOAuthServer } from '../../apps/proxy/test/support/oauth-sdk-server.js';
import { freePort } from '../../apps/proxy/test/support/free-port.js';

const TUNNEL = 'brave-otter.trycloudflare.com';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openai-mcp', version: '1.0.0' } } });

/** ChatGPT's POST as cloudflared delivers it to the tap: the tunnel's Host, ChatGPT's User-Agent, from loopback. */
function chatgptThroughTunnel(mcpUrl: string): Promise<number> {
  const url = new URL(mcpUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: TUNNEL, 'user-agent': 'openai-mcp/1.0.0', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(INIT);
  });
}

test.describe('a tunnel Host refused for want of --public-url', () => {
  let app: RunningMcpscope;
  test.beforeAll(async () => {
    app = await runMcpscope();
  });
  test.afterAll(() => app?.stop());

  test('is said in the Exchanges view and the terminal, and one click accepts it for the run', async ({ page }) => {
    await openDashboard(page, app);
    await expect(page.getByTestId('first-run')).toBeVisible();
    expect(await chatgptThroughTunnel(app.mcpUrl)).toBe(403);
    expect(await chatgptThroughTunnel(app.mcpUrl)).toBe(403);

    const banner = page.locator(`[data-testid="refused-host"][data-host="${TUNNEL}"]`);
    await expect(banner).toContainText('ChatGPT (openai-mcp/1.0.0)');
    await expect(banner).toContainText('requests (2) were refused');
    await expect(banner).toContainText('127.0.0.1');
    await expect(banner.getByTestId('refused-host-fix')).toHaveText(`--public-url https://${TUNNEL}`);
    await expect(page.getByTestId('public-url-advice')).toContainText('refuses requests for any Host it does not know');
    await expect.poll(() => app.output()).toContain(`restart with --public-url https://${TUNNEL}`);
    // The first-run page's live checklist: the tunnel got here, its Host did not get in.
    const item = (key: string) => page.locator(`[data-testid="checklist-item"][data-key="${key}"]`);
    await expect(item('tunnel')).toHaveAttribute('data-state', 'done');
    await expect(item('host')).toHaveAttribute('data-state', 'failed');
    await expect(item('host')).toContainText(`--public-url https://${TUNNEL}`);

    const accept = banner.getByTestId('accept-host');
    await expect(accept).toHaveText(`Accept ${TUNNEL} for this run (from 127.0.0.1)`);
    await accept.click();
    await expect(page.getByTestId('refused-hosts')).toHaveCount(0);

    // ChatGPT tries again: the tap takes the Host now, and the call shows in the timeline.
    expect(await chatgptThroughTunnel(app.mcpUrl)).toBe(200);
    await expect(row(page, 'initialize', 'ok')).toHaveCount(1);
    // Connected through the tunnel, no call yet: the checklist stays above the timeline.
    await expect(page.getByTestId('checklist-bar')).toBeVisible();
    await expect(item('host')).toHaveAttribute('data-state', 'done');
    await expect(item('initialize')).toHaveAttribute('data-state', 'done');
    await expect(item('first-call')).toHaveAttribute('data-state', 'waiting');
  });
});

test.describe('an OAuth 401 on the MCP endpoint', () => {
  let server: SdkOAuthServer;
  let app: RunningMcpscope;
  let publicMcpUrl: string;
  test.beforeAll(async () => {
    const port = await freePort();
    const publicOrigin = `http://localhost:${port}`;
    server = await startSdkOAuthServer({ publicOrigin });
    app = await runMcpscope(['--target', server.mcpUrl, '--port', String(port), '--public-url', publicOrigin]);
    publicMcpUrl = `${publicOrigin}/mcp`;
  });
  test.afterAll(async () => {
    await app?.stop();
    await server?.close();
  });

  test('reads as authorization required and leads to the connection story from its row', async ({ page }) => {
    await openDashboard(page, app);
    // ChatGPT's first POST carries no token; the server challenges; ChatGPT reads the metadata it names.
    const challenged = await fetch(publicMcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': 'openai-mcp/1.0.0' }, body: INIT });
    expect(challenged.status).toBe(401);
    const metadata = /resource_metadata="([^"]+)"/.exec(challenged.headers.get('www-authenticate') ?? '')![1]!;
    expect((await fetch(metadata, { headers: { 'user-agent': 'openai-mcp/1.0.0' } })).status).toBe(200);

    const initialize = row(page, 'initialize');
    await expect(initialize.getByTestId('status-badge')).toHaveText('🔒authorization required');
    await initialize.click();
    await expect(page.getByTestId('detail-pane')).not.toContainText('invalid-message');
    await expect(page.getByTestId('error-message')).toContainText('authorization required: HTTP 401');
    await page.getByTestId('open-connection-story').click();

    await expect(page.getByTestId('connections')).toBeVisible();
    await expect(page.getByTestId('flow')).toBeVisible();
    await expect(page.locator('[data-testid="flow-step"][data-check="challenge"]')).toHaveAttribute('data-colour', 'green');
    await expect(page.getByTestId('door-detail')).toBeVisible();
  });
});
