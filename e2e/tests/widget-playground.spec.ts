// The widget playground on a real MCP App: the official ext-apps example server-basic-vanillajs
// (its get-time widget shows `structuredContent.time`) behind the tap, called by the official SDK
// client. The widget re-renders with structuredContent edited in the playground (marked edited on
// the frame and the tab), then runs from a local copy of its HTML the test rewrites: each save
// re-renders it, the edited data kept. With MCPSCOPE_SCREENSHOTS=DIR the playground and the
// save-as-test dialog are written there (docs/ in the README).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { openDashboard } from '../support/dashboard.js';
import { openWidget, widgetFrame } from '../support/widget.js';

const pkg = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/', import.meta.url));
const mcpscope = mcpscopeForTests(['--stdio', `${process.execPath} ${join(pkg, 'index.js')} --stdio`]);
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-playground-'));
const shots = process.env.MCPSCOPE_SCREENSHOTS;
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The example's own HTML with a visible marker, as a developer's edit would change it. */
const writeWidget = (file: string, marker: string) => writeFileSync(file, readFileSync(join(pkg, 'mcp-app.html'), 'utf8').replace('<body>', `<body><p id="local-marker">${marker}</p>`));

test('edited structuredContent re-renders the example widget, and a watched local copy of its HTML hot-reloads', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1100 });
  const client = new Client({ name: 'apps-host-client', version: '1.0.0' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpscope.app.mcpUrl)));
  await client.listTools();
  const times: string[] = [];
  for (let i = 0; i < 2; i++) times.push(((await client.callTool({ name: 'get-time', arguments: {} })).structuredContent as { time: string }).time);
  await client.readResource({ uri: 'ui://get-time/mcp-app.html' });
  await client.close();

  await openDashboard(page, mcpscope.app);
  await openWidget(page, 'get-time');
  const widget = widgetFrame(page);
  // Rendered by the example's own code from one of the captured results.
  await expect(widget.locator('#server-time')).toHaveText(new RegExp(`^(${times.join('|')})$`));
  await expect(page.getByTestId('detail-tab-widget')).toHaveText('Widget');
  // Flipped to the other captured result of get-time: its time, labelled, not marked edited.
  const shownFirst = await widget.locator('#server-time').textContent();
  await page.getByTestId('playground-flip').click();
  await expect(widget.locator('#server-time')).toHaveText(times.find((t) => t !== shownFirst)!);
  await expect(page.getByTestId('widget-data-label')).toHaveAttribute('data-edited', 'false');
  await expect(page.getByTestId('playground-shape')).toContainText('same shape');

  await page.getByTestId('playground-structuredContent').fill('{ "time": "EDITED 12:34" }');
  await page.getByTestId('playground-apply').click();
  await expect(widget.locator('#server-time')).toHaveText('EDITED 12:34');
  await expect(page.getByTestId('widget-data-label')).toHaveAttribute('data-edited', 'true');
  await expect(page.getByTestId('widget-frame')).toHaveAttribute('title', 'get-time widget (edited data)');
  await expect(page.getByTestId('detail-tab-widget')).toHaveText('Widget · edited');

  const file = join(dir, 'mcp-app.html');
  writeWidget(file, 'local copy v1');
  await page.getByTestId('playground-file-path').fill(file);
  await page.getByTestId('playground-file-use').click();
  await expect(widget.locator('#local-marker')).toHaveText('local copy v1');
  await expect(widget.locator('#server-time')).toHaveText('EDITED 12:34');
  await expect(page.getByTestId('widget-provenance')).toHaveAttribute('data-source', 'file');

  writeWidget(file, 'local copy v2');
  await expect(widget.locator('#local-marker')).toHaveText('local copy v2');
  await expect(page.getByTestId('playground-file-state')).toHaveAttribute('data-version', '2');
  await expect(widget.locator('#server-time')).toHaveText('EDITED 12:34');
  if (shots) await page.getByTestId('detail-pane').screenshot({ path: join(shots, 'widget-playground.png') });

  await page.getByTestId('save-test-button').click();
  await page.getByTestId('save-test-scope-conversation').check();
  await expect(page.getByTestId('save-test-summary')).toContainText('calls in 1 session');
  await expect(page.getByTestId('save-test-command')).toContainText('mcpscope verify golden.jsonl --target "$MCP_URL" --expect ok --report junit.xml');
  if (shots) await page.getByTestId('save-test-panel').screenshot({ path: join(shots, 'save-as-test.png') });
});
