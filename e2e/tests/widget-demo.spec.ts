// The first run's widget: ChatGPT (here, the official SDK client) calls suggest_gifts on the demo
// server; the dashboard renders the gift cards from the captured call, in a sandbox on its own
// origin; the widget's Wrap button calls wrap_gift through the host, and that call reaches the
// upstream and appears in the timeline linked to the call whose widget made it; theme and display
// mode switched in the preview reach the widget; the same widget runs through window.openai (the
// ChatGPT host) and through the MCP Apps bridge alone.
import { expect, test } from '@playwright/test';
import { mcpscopeForTests } from '../support/mcpscope-process.js';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { answerConsent, logEntries, openWidget, widgetFrame } from '../support/widget.js';

const mcpscope = mcpscopeForTests();

test('the demo widget renders from the captured call, wraps a gift through the host, and follows theme and display mode', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const client = await sdkClient(mcpscope.app.mcpUrl, 'ChatGPT-like client');
  await client.listTools();
  const captured = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, recipient: 'Ada' } });
  await client.close();
  expect(captured.structuredContent).toEqual({ gifts: [{ name: 'Personalised star map print', price: 55 }, { name: 'Board game night bundle', price: 48 }, { name: 'Leather-bound journal', price: 35 }] });

  await openDashboard(page, mcpscope.app);
  await openWidget(page, 'suggest_gifts');
  const widget = widgetFrame(page);
  // The cards come from structuredContent, exactly as captured.
  await expect(widget.locator('li .name')).toHaveText(['Personalised star map print', 'Board game night bundle', 'Leather-bound journal']);
  await expect(widget.locator('#host')).toHaveText('window.openai · light · inline');
  // The capture had no resources/read of the widget: mcpscope read it, as a labelled side request.
  await expect(page.getByTestId('widget-source')).toContainText('read now by mcpscope');
  // Its session is mcpscope's own and says so in the sidebar: no replay, no client's session.
  const own = page.getByTestId('session-item').filter({ has: page.getByTestId('session-own') });
  await expect(own).toHaveCount(1);
  await expect(own).toContainText('mcpscope widget preview');
  await expect(own.getByTestId('session-replay')).toHaveCount(0);
  // The widget runs on its own origin, never the dashboard's.
  const origin = await page.getByTestId('widget-frame').getAttribute('data-origin');
  expect(origin).toMatch(/^http:\/\/w-[a-z0-9]+\.localhost:\d+$/);
  expect(new URL(origin!).port).not.toBe(new URL(mcpscope.app.dashboardUrl).port);
  // Who sees what.
  await expect(page.getByTestId('audience-model')).toContainText('Gift ideas for Ada');
  await expect(page.getByTestId('audience-both')).toContainText('Board game night bundle');
  await expect(page.getByTestId('audience-widget')).toContainText('(none)');

  // The Wrap button: window.openai.callTool → the proxy → (after the user's Allow) the upstream.
  await widget.getByRole('button', { name: 'Wrap' }).first().click();
  await answerConsent(page, 'wrap_gift', 'allow');
  await expect(widget.locator('#status')).toHaveText('Personalised star map print is wrapped with a bow.');
  const callId = await page.locator('[data-testid="exchange-row"][data-method="tools/call"]').filter({ hasText: 'suggest_gifts' }).first().getAttribute('data-id');
  const wrapRow = row(page, 'tools/call').filter({ hasText: 'wrap_gift' });
  await expect(wrapRow).toHaveCount(1);
  await expect(wrapRow.getByTestId('widget-mark')).toHaveAttribute('data-widget-of', callId!);
  await expect(logEntries(page, 'call').filter({ hasText: 'wrap_gift answered ok' })).toHaveCount(1);
  await expect(logEntries(page, 'state')).toContainText('window.openai.setWidgetState');
  await expect(page.getByTestId('widget-state')).toContainText('Personalised star map print');
  // A follow-up message cannot reach a model here: it is shown, not dropped.
  await widget.getByRole('link', { name: 'More ideas' }).click();
  await expect(logEntries(page, 'message')).toContainText('Suggest three more gift ideas like these.');
  await page.screenshot({ path: `${SCREENSHOTS}widget-preview.png` });

  // Theme and display mode reach the running widget (no reload).
  await page.getByTestId('widget-theme').getByRole('button', { name: 'dark' }).click();
  await expect(widget.locator('#host')).toHaveText('window.openai · dark · inline');
  await page.getByTestId('widget-display-mode').getByRole('button', { name: 'fullscreen' }).click();
  await expect(widget.locator('#host')).toHaveText('window.openai · dark · fullscreen');
  await expect(page.getByTestId('widget-box')).toHaveAttribute('data-display-mode', 'fullscreen');
  await page.getByTestId('widget-exit').click();
  await expect(widget.locator('#host')).toHaveText('window.openai · dark · inline');
  await expect(widget.locator('#status')).toHaveText('Personalised star map print is wrapped with a bow.'); // still the same document

  // The same widget through the MCP Apps bridge alone (a host without window.openai).
  await page.getByTestId('widget-profile').selectOption('mcp-apps');
  await expect(widget.locator('#host')).toHaveText('MCP Apps · dark · inline');
  await expect(widget.locator('li .name')).toHaveCount(3);
  await expect(logEntries(page, 'bridge').filter({ hasText: 'ui/initialize from gift-cards 1.0.0' })).toHaveCount(1);
  await page.getByTestId('widget-display-mode').getByRole('button', { name: 'pip' }).click();
  await expect(widget.locator('#host')).toHaveText('MCP Apps · dark · pip');
  await page.getByTestId('widget-exit').click();
  await widget.getByRole('button', { name: 'Wrap' }).nth(1).click();
  await expect(widget.locator('#status')).toHaveText('Board game night bundle is wrapped with a bow.');
  await expect(row(page, 'tools/call').filter({ hasText: 'wrap_gift' })).toHaveCount(2);
  await expect(logEntries(page, 'context')).toContainText('ui/update-model-context');

  // The call's detail lists what its widget's preview sent (the resource read, the two wraps);
  // a widget call says whose widget made it.
  await page.getByTestId('detail-tab-exchange').click();
  await expect(page.getByTestId('detail-widget-calls').getByTestId('widget-called')).toHaveCount(3);
  await wrapRow.first().click();
  await expect(page.getByTestId('detail-widget-of')).toContainText(`#${callId}`);
});
