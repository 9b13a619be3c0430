// Real MCP Apps from the npm registry — the official ext-apps examples server-basic-vanillajs and
// server-basic-react, started as their READMEs say (`--stdio`) behind the tap — driven by the
// official SDK client, then previewed: the widget renders from the captured get-time call through
// the official ext-apps App class on one side and mcpscope's AppBridge on the other, and every
// button does what the example promises: Get Server Time calls the server (captured, linked),
// Send Message, Send Log and Open Link reach the host and show in the event log.
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { openDashboard, row } from '../support/dashboard.js';
import { answerConsent, logEntries, openWidget, widgetFrame } from '../support/widget.js';

// Their package `bin` (dist/index.js), run with this Node: a stdio server needs no port.
const serverEntry = (pkg: string) => fileURLToPath(new URL(`../node_modules/${pkg}/dist/index.js`, import.meta.url));

for (const pkg of ['@modelcontextprotocol/server-basic-vanillajs', '@modelcontextprotocol/server-basic-react']) {
  test.describe(pkg, () => {
    const mcpscope = mcpscopeForTests(['--stdio', `${process.execPath} ${serverEntry(pkg)} --stdio`]);

    test('its widget renders from the captured call and every button works in the preview', async ({ page }) => {
      await page.setViewportSize({ width: 1440, height: 1000 });
      // The client ChatGPT would be: it offers the MCP Apps extension.
      const client = new Client({ name: 'apps-host-client', version: '1.0.0' }, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } as never });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpscope.app.mcpUrl)));
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'get-time')?._meta).toMatchObject({ ui: { resourceUri: 'ui://get-time/mcp-app.html' } });
      const captured = await client.callTool({ name: 'get-time', arguments: {} });
      // Both examples put the time in content; the vanilla one also in structuredContent.
      const capturedTime = (captured.content as { text: string }[])[0]!.text;
      await client.readResource({ uri: 'ui://get-time/mcp-app.html' });
      await client.close();

      await openDashboard(page, mcpscope.app);
      await openWidget(page, 'get-time');
      await expect(page.getByTestId('widget-source')).toContainText('(captured in this session)');
      const widget = widgetFrame(page);
      // Rendered by the example's own code from the captured result.
      await expect(widget.getByText(capturedTime)).toBeVisible();
      await expect(logEntries(page, 'bridge').filter({ hasText: 'ui/initialize from' })).toHaveCount(1);

      // Get Server Time: the widget calls the server through the host; captured and linked.
      await widget.getByRole('button', { name: 'Get Server Time' }).click();
      await answerConsent(page, 'get-time', 'allow');
      await expect(logEntries(page, 'call').filter({ hasText: 'get-time answered ok' })).toHaveCount(1);
      await expect(widget.getByText(capturedTime)).toHaveCount(0);
      const callId = await page.locator('[data-testid="exchange-row"][data-method="tools/call"]').filter({ hasText: 'get-time' }).first().getAttribute('data-id');
      await expect(row(page, 'tools/call').filter({ has: page.locator(`[data-widget-of="${callId}"]`) })).toHaveCount(1);

      // The host-side requests: a message for the model, a log line, a link to open.
      await widget.getByRole('button', { name: 'Send Message' }).click();
      await expect(logEntries(page, 'message')).toHaveCount(1);
      await widget.getByRole('button', { name: 'Send Log' }).click();
      await expect(logEntries(page, 'log')).toContainText('This is log text.');
      await widget.getByRole('button', { name: 'Open Link' }).click();
      await expect(logEntries(page, 'link')).toContainText('https://modelcontextprotocol.io/');
      // None of it was an error.
      await expect(logEntries(page, 'error')).toHaveCount(0);
      await expect(logEntries(page, 'refused')).toHaveCount(0);

      // Host context reaches the example live: the vanilla one applies the host theme to its
      // document (applyDocumentTheme); the React one keeps it in state without showing it.
      if (pkg.endsWith('vanillajs')) {
        await page.getByTestId('widget-theme').getByRole('button', { name: 'dark' }).click();
        await expect(widget.locator('html')).toHaveAttribute('data-theme', 'dark');
      }
    });
  });
}
