// The Readiness view in Chromium: mcpscope in front of a server whose tools leave annotations
// unset (a ChatGPT rule, from a field report). Opened before any traffic, the view says not seen;
// the official SDK client then lists and calls the tools through the tap, and without a reload
// the check fails, ChatGPT reads "1 problem" while Claude stays ready, the filters narrow the
// table, and the evidence link lands on the tools/list exchange in the detail pane, its JSON path
// marked. Then an OAuth server without PKCE S256 (the SDK's auth helpers): that check fails for
// every host, and its evidence opens the metadata's door record in Connections.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { openDashboard, sdkClient, SCREENSHOTS } from '../support/dashboard.js';
import { startReadinessServer, WIDGET_URI, type ReadinessServer } from '../../apps/proxy/test/support/readiness-server.js';
import { startSdkOAuthServer } from '../../apps/proxy/test/support/oauth-sdk-server.js';
import { runOAuthFlow } from '../../apps/proxy/test/support/oauth-client.js';
import { freePort } from '../../apps/proxy/test/support/free-port.js';

const check = (page: Page, id: string) => page.locator(`[data-testid="check-row"][data-check="${id}"]`);
const hostCard = (page: Page, host: string) => page.locator(`[data-testid="host-card"][data-host="${host}"]`);

test.describe('a tool with annotations unset', () => {
  let server: ReadinessServer;
  let app: RunningMcpscope;

  test.beforeAll(async () => {
    server = await startReadinessServer(['annotations-missing']);
    app = await runMcpscope(['--target', server.url]);
  });
  test.afterAll(async () => {
    await app?.stop();
    await server?.close();
  });

  test('a failing check appears live, per host, and its evidence opens the frame', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openDashboard(page, app);
    await page.getByTestId('readiness-switch').click();
    await expect(page.getByTestId('readiness')).toBeVisible();

    // No tools/list yet: the check says not seen, and what traffic would show it.
    const annotations = check(page, 'tool-annotations-explicit');
    await expect(annotations).toHaveAttribute('data-verdict', 'not-seen');
    await expect(annotations.getByTestId('not-seen-needs')).toContainText(/tools\/list/);

    const client = await sdkClient(app.mcpUrl, 'readiness-e2e');
    await client.listTools();
    await client.readResource({ uri: WIDGET_URI });
    await client.callTool({ name: 'show_forecast', arguments: { city: 'Paris' } });
    await client.close();

    // The view asks the audit again as the traffic arrives: no reload.
    await expect(annotations).toHaveAttribute('data-verdict', 'fail');
    await expect(annotations.getByTestId('finding')).toContainText('show_forecast leaves destructiveHint, openWorldHint unset');
    await expect(annotations.getByTestId('evidence-path')).toHaveText('$.result.tools[0].annotations');
    await expect(annotations.getByTestId('check-source')).toHaveAttribute('data-kind', 'field-report');
    await expect(annotations.getByTestId('check-source')).toContainText('field report');

    await expect(hostCard(page, 'chatgpt').getByTestId('host-summary')).toHaveText('1 problem');
    await expect(hostCard(page, 'chatgpt')).toContainText('Every tool sets readOnlyHint, destructiveHint and openWorldHint');
    await expect(hostCard(page, 'claude').getByTestId('host-summary')).toHaveText('ready');
    await expect(hostCard(page, 'cursor')).toHaveAttribute('data-ready', 'true');

    mkdirSync(SCREENSHOTS, { recursive: true });
    // The README's picture (docs/readiness.png is a copy of this one).
    await page.screenshot({ path: `${SCREENSHOTS}readiness.png` });

    // Filters: failures only; then Claude's checks, where this ChatGPT rule does not apply.
    await page.locator('[data-testid="verdict-filter"][data-verdict="fail"]').click();
    await expect(page.getByTestId('check-row')).toHaveCount(1);
    await expect(annotations).toBeVisible();
    await hostCard(page, 'claude').click();
    await expect(page.getByTestId('check-row')).toHaveCount(0);
    await hostCard(page, 'claude').click();
    await page.locator('[data-testid="verdict-filter"][data-verdict="all"]').click();
    await expect(page.getByTestId('check-row').first()).toHaveAttribute('data-verdict', 'fail');

    // The evidence: the tools/list exchange, open in the Exchanges view's detail pane.
    const link = annotations.getByTestId('evidence-link');
    const exchangeId = await link.getAttribute('data-exchange');
    await link.click();
    const detail = page.getByTestId('detail-pane');
    await expect(detail.locator('.detail-title strong')).toHaveText('tools/list');
    await expect(page).toHaveURL(new RegExp(`[?&]x=${exchangeId}(&|$)`));
    await expect(page.locator('[data-testid="exchange-row"][data-method="tools/list"]')).toHaveAttribute('aria-selected', 'true');
    // The finding's JSON path is marked (and unfolded) in the response frame.
    const marked = detail.locator('[data-path="$.result.tools[0].annotations"] > .j-row.mark-warning');
    await expect(marked).toBeVisible();
    await expect(marked).toContainText('tool-annotations-explicit: fail');

    // Back to Readiness: the filters are as they were left.
    await page.getByTestId('readiness-switch').click();
    await expect(annotations).toHaveAttribute('data-verdict', 'fail');
  });
});

test('an authorization server without PKCE S256: the evidence opens its door record in Connections', async ({ page }) => {
  const port = await freePort();
  const publicOrigin = `http://localhost:${port}`;
  const server = await startSdkOAuthServer({ publicOrigin, flaw: 'no-s256' });
  const app = await runMcpscope(['--target', server.mcpUrl, '--port', String(port), '--public-url', publicOrigin]);
  try {
    await openDashboard(page, app);
    await page.getByTestId('readiness-switch').click();
    const pkce = check(page, 'auth-pkce-s256');
    await expect(pkce).toHaveAttribute('data-verdict', 'not-seen');

    const run = await runOAuthFlow(`${publicOrigin}/mcp`, 'readiness-e2e');
    await run.client?.close();

    await expect(pkce).toHaveAttribute('data-verdict', 'fail');
    await expect(pkce.getByTestId('evidence-path')).toHaveText('$.code_challenge_methods_supported');
    for (const host of ['chatgpt', 'claude', 'claude-code', 'cursor', 'vscode']) await expect(hostCard(page, host)).toHaveAttribute('data-ready', 'false');

    const link = pkce.getByTestId('evidence-link');
    const record = await link.getAttribute('data-door-record');
    await link.click();
    await expect(page.getByTestId('connections')).toBeVisible();
    await expect(page.getByTestId('door-detail')).toHaveAttribute('aria-label', `HTTP request ${record}`);
    await expect(page.getByTestId('door-body')).toContainText('code_challenge_methods_supported');
  } finally {
    await app.stop();
    await server.close();
  }
});
