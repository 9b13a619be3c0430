// The Connections view in Chromium (issue 15): a real OAuth connection — the official SDK client
// against a server built from the SDK's server-side auth helpers, through the built mcpscope —
// read as a green story (discovery, registration, authorization, token, MCP); three broken
// servers, each showing its red step and reason; probes only, "probed, never connected"; and no
// raw secret on the dashboard's WebSocket.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { openDashboard, SCREENSHOTS } from '../support/dashboard.js';
import { startSdkOAuthServer, type OAuthFlaw, type SdkOAuthServer } from '../../apps/proxy/test/support/oauth-sdk-server.js';
import { runOAuthFlow } from '../../apps/proxy/test/support/oauth-client.js';
import { freePort } from '../../apps/proxy/test/support/free-port.js';

interface World {
  server: SdkOAuthServer;
  app: RunningMcpscope;
  publicMcpUrl: string;
}

/** An SDK OAuth server behind the built mcpscope; both know the tap as http://localhost:PORT. */
async function world(flaw?: OAuthFlaw): Promise<World> {
  const port = await freePort();
  const publicOrigin = `http://localhost:${port}`;
  const server = await startSdkOAuthServer({ publicOrigin, ...(flaw ? { flaw } : {}) });
  const app = await runMcpscope(['--target', server.mcpUrl, '--port', String(port), '--public-url', publicOrigin]);
  return { server, app, publicMcpUrl: `${publicOrigin}/mcp` };
}

async function stop(w: World | undefined): Promise<void> {
  await w?.app.stop();
  await w?.server.close();
}

async function openConnections(page: Page, app: RunningMcpscope): Promise<void> {
  await openDashboard(page, app);
  await page.getByTestId('connections-switch').click();
  await expect(page.getByTestId('connections')).toBeVisible();
}

const step = (page: Page, check: string) => page.locator(`[data-testid="flow-step"][data-check="${check}"]`);

test.describe('a good OAuth connection', () => {
  let w: World;
  test.beforeAll(async () => {
    w = await world();
  });
  test.afterAll(() => stop(w));

  test('reads as a green story, step by step, with every request one click away', async ({ page }) => {
    const frames: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
    await openConnections(page, w.app);

    const run = await runOAuthFlow(w.publicMcpUrl, 'e2e-oauth');
    expect(run.error).toBeUndefined();
    await run.client!.listTools();
    await run.client!.callTool({ name: 'whoami', arguments: {} });
    await run.client!.close();

    const client = page.locator('[data-testid="client-item"][data-verdict="connected"]');
    await expect(client).toHaveCount(1);
    await client.click();
    await expect(page.getByTestId('flow-verdict')).toHaveText('connected (2025-11-25)');
    for (const check of ['challenge', 'prm', 'asm', 'registration', 'authorization', 'token', 'initialize', 'tools-list', 'mcp-calls']) {
      await expect(step(page, check).first(), check).toHaveAttribute('data-colour', 'green');
    }
    await expect(page.locator('[data-testid="flow-step"][data-colour="red"]')).toHaveCount(0);
    // The phases in story order.
    const phases = await page.locator('.story-phase').evaluateAll((els) => els.map((e) => e.getAttribute('data-phase')));
    expect(phases.slice(0, 4)).toEqual(['discovery', 'registration', 'authorization', 'discovery']);
    expect(phases.slice(-2)).toEqual(['token', 'mcp']);

    // The token step's request: the detail shows the body, secrets redacted.
    await step(page, 'token').getByTestId('step-record').click();
    const detail = page.getByTestId('door-detail');
    await expect(detail).toContainText('POST /token');
    await expect(detail.getByTestId('door-body').first()).toContainText('code_verifier=%5Bredacted%5D');
    await expect(detail.getByTestId('door-body').last()).toContainText('"access_token": "[redacted]');

    // From the story to the MCP exchange in the timeline, and from its frame back to the door.
    await step(page, 'initialize').getByTestId('step-exchange').first().click();
    await expect(page.getByTestId('timeline')).toBeVisible();
    await page.locator('[data-testid="http-layer"] summary').first().click();
    await page.getByTestId('door-link').first().click();
    await expect(page.getByTestId('door-detail')).toContainText('POST /mcp');

    // Every request, as a table, filtered in the one language.
    await page.getByTestId('all-requests').click();
    await page.getByTestId('filter-input').fill('http.path:/.well-known/*');
    await expect(page.getByTestId('filter-status')).toContainText('HTTP requests where the HTTP path starts with /.well-known/');
    const rows = page.getByTestId('door-request');
    await expect(rows).toHaveCount(4);
    await page.getByTestId('filter-input').fill('');

    // No raw secret ever reached the browser.
    const secrets = [...w.server.issuedTokens(), run.code!, run.provider.verifier];
    const seen = frames.join('\n');
    for (const secret of secrets) expect(seen.includes(secret)).toBe(false);
    expect(seen).toContain('requests/update');
  });

  test('probes only read "probed, never connected"', async ({ page }) => {
    const headers = { 'user-agent': 'Mozilla/5.0 (e2e prober)' };
    await (await fetch(w.app.mcpUrl, { headers: { ...headers, accept: 'text/html' } })).arrayBuffer();
    await (await fetch(new URL('/favicon.ico', w.app.mcpUrl), { headers })).arrayBuffer();
    await (await fetch(w.app.mcpUrl, { method: 'HEAD', headers })).arrayBuffer();
    await openConnections(page, w.app);
    const prober = page.locator('[data-testid="client-item"][data-verdict="probed"]');
    await expect(prober).toContainText('Mozilla/5.0 (e2e prober)');
    await prober.click();
    await expect(page.getByTestId('flow-verdict')).toHaveText('probed, never connected');
    await expect(page.locator('[data-testid="flow-step"][data-check="probe"]')).toHaveCount(3);
  });
});

test.describe('broken servers', () => {
  const cases: [OAuthFlaw, string, string][] = [
    ['wrong-resource', 'prm-resource-mismatch', 'names resource https://mcp.example.com/mcp, but the client reached the server at'],
    ['no-s256', 'no-s256', 'without S256'],
    ['no-www-authenticate', 'unauthorized-without-challenge', 'The server answered 401 without WWW-Authenticate'],
  ];
  for (const [flaw, check, reason] of cases) {
    test(`${flaw}: the red step says why`, async ({ page }) => {
      const w = await world(flaw);
      try {
        await page.setViewportSize({ width: 1180, height: 760 });
        await openConnections(page, w.app);
        const run = await runOAuthFlow(w.publicMcpUrl, 'e2e-oauth');
        await run.client?.close();
        const red = step(page, check);
        await expect(red).toHaveAttribute('data-colour', 'red');
        await expect(red.getByTestId('step-reason')).toContainText(reason);
        if (flaw !== 'no-www-authenticate') await expect(page.getByTestId('flow-verdict')).toContainText('failed at discovery');
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.getByTestId('connections').screenshot({ path: `${SCREENSHOTS}connections-${flaw}.png` });
      } finally {
        await stop(w);
      }
    });
  }
});
