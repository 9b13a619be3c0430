// A breakpoint on a tool's answer, set from the Rules panel: the official SDK client's call
// pauses at the tap, the held answer shows in the panel (with its countdown and a badge on the
// Rules button), the user edits its result text in the editor and releases it, and the client
// receives the edited result while the detail pane shows the original beside the delivered.
import { expect, test, type Page } from '@playwright/test';
import type { HeldFrameView, InterceptResponse } from '@mcpscope/protocol';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { openDashboard, row, sdkClient } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }));
  return server;
}

let upstream: SdkServer;
let app: RunningMcpscope;
test.beforeAll(async () => {
  upstream = await startSdkServer(echoServer, 'stateless');
  app = await runMcpscope(['--target', upstream.url]);
});
test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** The frame the rule holds, read through the token-guarded API (the text the editor opens with). */
async function heldFrame(page: Page): Promise<HeldFrameView> {
  const token = new URL(app.dashboardLoginUrl).searchParams.get('token');
  const res = await page.request.get(`${app.dashboardUrl}/api/intercept`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as InterceptResponse).held[0]!;
}

test('a paused answer is edited in the panel, released, and the client gets the edit', async ({ page }) => {
  await openDashboard(page, app);
  await page.getByTestId('intercept-open').click();
  const input = page.getByTestId('intercept-rule-input');

  // A mistake is shown where it is while typing, and such a rule cannot be added.
  await input.fill('method:tools/call => paws response');
  await expect(page.getByTestId('intercept-rule-error')).toHaveAttribute('data-position', '21');
  await expect(page.getByTestId('intercept-rule-error').locator('mark')).toHaveText('paws');
  await expect(page.getByTestId('intercept-rule-add')).toBeDisabled();

  await input.fill('method:tools/call => pause response');
  await expect(page.getByTestId('intercept-rule-error')).toHaveCount(0);
  await page.getByTestId('intercept-rule-add').click();
  await expect(page.getByTestId('intercept-rule').locator('.intercept-rule-text')).toHaveText('method:tools/call => pause response');

  const client = await sdkClient(app.mcpUrl);
  const call = client.callTool({ name: 'echo', arguments: { text: 'hello' } });

  const held = page.getByTestId('intercept-held');
  await expect(held).toBeVisible();
  await expect(page.getByTestId('intercept-badge')).toHaveText('1');
  await expect(held.getByTestId('intercept-countdown')).toContainText(/goes on in \d+s/);
  const editor = held.getByTestId('intercept-held-editor');
  // Monaco loads lazily with the first held frame: allow for the first parse of its chunk on a busy machine.
  await expect(editor.locator('.view-lines')).toContainText('echo: hello', { timeout: 20_000 });

  // Edit the result's text as a user would: select all, paste the changed answer.
  const answer = JSON.parse((await heldFrame(page)).raw) as { result: { content: { type: string; text: string }[] } };
  answer.result.content[0]!.text = 'edited at the breakpoint';
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.evaluate((text) => (globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }).navigator.clipboard.writeText(text), JSON.stringify(answer, null, 2));
  await page.keyboard.press('ControlOrMeta+v');
  await expect(held.getByTestId('intercept-release')).toHaveText('Release edited');
  await held.getByTestId('intercept-release').click();

  expect(await call).toMatchObject({ content: [{ type: 'text', text: 'edited at the breakpoint' }] });
  await client.close();
  await expect(page.getByTestId('intercept-held')).toHaveCount(0);
  await expect(page.getByTestId('intercept-badge')).toHaveCount(0);
  await expect(page.getByTestId('intercept-rule-hits')).toContainText('1 hit');
  await page.getByTestId('intercept-close').click();

  // The timeline marks the call with the rule; the detail pane shows the original beside the delivered.
  const callRow = row(page, 'tools/call');
  await expect(callRow.getByTestId('intercept-mark')).toHaveAttribute('title', /method:tools\/call => pause response/);
  await callRow.click();
  await expect(page.getByTestId('detail-intercepted')).toContainText('method:tools/call => pause response');
  await expect(page.getByTestId('intervention-original')).toContainText('echo: hello');
  await expect(page.getByTestId('intervention-delivered')).toContainText('edited at the breakpoint');
  await expect(page.getByTestId('reaction-card')).toBeVisible();
});
