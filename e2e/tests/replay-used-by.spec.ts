// The used-by story of issue 7: ChatGPT's tools/call failed; the user opens it, fixes the
// arguments in Monaco, replays it (in its live session, then in a fresh one) and sees the new
// exchange succeed beside a diff of the answers. Then the same against server-everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mcpscopeForTests, runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';

const require = createRequire(import.meta.url);

async function chatgpt(mcpUrl: string): Promise<Client> {
  // Declares elicitation, as ChatGPT's connector may: server-everything then offers its elicitation tool.
  const client = new Client({ name: 'openai-mcp', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { 'user-agent': 'openai-mcp/1.0.0' } } }));
  return client;
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** Replaces the whole text of the replay editor as a user would: select all, paste. */
async function editMessage(page: Page, message: unknown): Promise<void> {
  const editor = page.getByTestId('replay-editor');
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.evaluate((text) => (globalThis as unknown as { navigator: { clipboard: { writeText(t: string): Promise<void> } } }).navigator.clipboard.writeText(text), JSON.stringify(message, null, 2));
  await page.keyboard.press('ControlOrMeta+v');
}

async function openReplay(page: Page, row: ReturnType<Page['locator']>): Promise<void> {
  await row.click();
  await page.getByTestId('replay-button').click();
  await expect(page.getByTestId('replay-panel')).toBeVisible();
  // Monaco loads lazily with the panel: allow for the first parse of its chunk on a busy machine.
  await expect(page.getByTestId('replay-editor').locator('.view-lines')).toContainText('tools/call', { timeout: 20_000 });
}

test.describe('replay on the demo server', () => {
  const proxy = mcpscopeForTests();

  test('ChatGPT\'s failed suggest_gifts, fixed in Monaco and replayed in session then fresh mode', async ({ page }) => {
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(proxy.app.dashboardLoginUrl);
    await expect(page.getByTestId('connection')).toHaveText('live');

    const client = await chatgpt(proxy.app.mcpUrl);
    await client.listTools(); // as ChatGPT does on connecting: the editor learns the inputSchemas from it
    await expect(client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'fifty' } })).rejects.toMatchObject({ code: -32602 });

    const failed = page.locator('[data-testid="exchange-row"][data-method="tools/call"]');
    await expect(failed).toHaveCount(1);
    await expect(failed).toHaveAttribute('data-status', 'protocol_error');
    const originalId = await failed.getAttribute('data-id');
    await openReplay(page, failed);

    // The editor knows the tool's inputSchema: "fifty" is flagged inline before anything is sent.
    const editor = page.getByTestId('replay-editor');
    await expect(editor.locator('.squiggly-error').first()).toBeAttached();
    await editMessage(page, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 50, recipient: 'Ada' } } });
    await expect(editor.locator('.squiggly-error')).toHaveCount(0);

    await expect(page.getByTestId('replay-mode-session')).toBeChecked();
    await page.getByTestId('replay-send').click();
    const result = page.getByTestId('replay-result');
    await expect(result).toHaveAttribute('data-status', 'ok');
    await expect(result).toContainText('same session');
    const firstReplayId = await result.getAttribute('data-exchange-id');

    // The new exchange is in the timeline, selected, and the diff shows both answers.
    const selected = page.locator('[data-testid="exchange-row"][aria-selected="true"]');
    await expect(selected).toHaveAttribute('data-status', 'ok');
    await expect(selected).toContainText('suggest_gifts');
    const diff = page.getByTestId('replay-diff');
    await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
    await expect(diff.locator('.editor.original .lines-content > .view-lines')).toContainText('Invalid arguments');
    await expect(diff.locator('.editor.modified .lines-content > .view-lines')).toContainText('Gift ideas for Ada');
    await page.screenshot({ path: '../reports/screenshots/replay-session.png' });

    // The same in a fresh session: mcpscope opens its own session as this client.
    await page.getByTestId('replay-mode-fresh').check();
    await page.getByTestId('replay-send').click();
    await expect(result).not.toHaveAttribute('data-exchange-id', firstReplayId!);
    await expect(result).toHaveAttribute('data-status', 'ok');
    await expect(result).toContainText('fresh session');
    await expect(page.locator('[data-testid="exchange-row"][data-method="initialize"]')).toHaveCount(2);

    // Copy as curl: the right headers, secrets never in clear.
    await page.getByTestId('replay-copy-curl').click();
    await expect(page.getByTestId('replay-curl')).toContainText("accept: application/json, text/event-stream");
    await expect(page.getByTestId('replay-curl')).toContainText('mcp-session-id: ');
    await page.screenshot({ path: '../reports/screenshots/replay-fresh.png' });
    const freshReplayId = await result.getAttribute('data-exchange-id');
    await page.getByTestId('replay-close').click();

    // After replaying, the new row is marked as a replay of #N, and clicking the mark selects the
    // original. Every Send from one panel replays the exchange the panel was opened on: the fresh
    // replay is a replay of the original too, not of the first replay.
    const rowOf = (id: string | null) => page.locator(`[data-testid="exchange-row"][data-id="${id}"]`);
    await expect(rowOf(originalId).getByTestId('replay-mark')).toHaveCount(0);
    await expect(rowOf(firstReplayId).getByTestId('replay-mark')).toHaveText(`↻ #${originalId}`);
    await expect(rowOf(freshReplayId).getByTestId('replay-mark')).toHaveText(`↻ #${originalId}`);
    await rowOf(freshReplayId).click();
    await expect(page.getByTestId('detail-replay-of')).toHaveText(`↻ #${originalId}`);
    await rowOf(firstReplayId).getByTestId('replay-mark').click();
    await expect(rowOf(originalId)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('detail-replay-of')).toHaveCount(0);
    await expect(rowOf(firstReplayId)).toHaveAttribute('aria-selected', 'false');
    // The original says what it was replayed as (both sends); following a link selects that replay.
    await expect(page.getByTestId('replayed-as')).toHaveText([`↻ #${firstReplayId}`, `↻ #${freshReplayId}`]);
    await page.getByTestId('replayed-as').filter({ hasText: `#${firstReplayId}` }).click();
    await expect(rowOf(firstReplayId)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('detail-replayed-as')).toHaveCount(0);

    await client.close();
    expect(consoleErrors).toEqual([]);
  });

  test('an expired session says so and offers a fresh one; the composer sends from a template', async ({ page }) => {
    await page.goto(proxy.app.dashboardLoginUrl);
    await expect(page.getByTestId('connection')).toHaveText('live');
    const transport = new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl), { requestInit: { headers: { 'user-agent': 'openai-mcp/1.0.0' } } });
    const client = new Client({ name: 'openai-mcp', version: '1.0.0' });
    await client.connect(transport);
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'retirement', budget: 4 } });
    await transport.terminateSession(); // the server forgets the session

    const failed = page.locator('[data-testid="exchange-row"][data-method="tools/call"][data-status="business_error"]').last();
    await openReplay(page, failed);
    await page.getByTestId('replay-send').click();
    const error = page.getByTestId('replay-error');
    await expect(error).toHaveAttribute('data-code', 'session_expired');
    // The server's own answer (-32001 Session not found), recorded as one exchange.
    await expect(page.getByTestId('replay-result')).toHaveAttribute('data-status', 'protocol_error');
    await page.getByTestId('replay-retry-fresh').click();
    await expect(page.getByTestId('replay-result')).toHaveAttribute('data-status', 'business_error');
    await expect(page.getByTestId('replay-result')).toContainText('fresh session');
    await expect(error).toHaveCount(0);
    await page.getByTestId('replay-close').click();
    await expect(page.getByTestId('replay-panel')).toHaveCount(0);

    // The composer: a template, sent in a fresh session (there is no original to link to).
    await page.getByTestId('replay-compose').click();
    await page.getByTestId('replay-template').selectOption('tools/list');
    await expect(page.getByTestId('replay-mode-session')).toBeDisabled();
    await page.getByTestId('replay-send').click();
    await expect(page.getByTestId('replay-result')).toHaveAttribute('data-status', 'ok');
    await expect(page.getByTestId('replay-answer')).toContainText('suggest_gifts');
    await client.close().catch(() => undefined);
  });
});

test.describe('replay on server-everything', () => {
  let everything: ChildProcess;
  let app: RunningMcpscope;
  test.beforeAll(async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as { port: number };
    await new Promise<void>((r) => srv.close(() => r()));
    const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
    everything = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let log = '';
      everything.stderr!.on('data', (d: Buffer) => (log += d.toString()).includes('listening') && resolve());
      everything.once('exit', () => reject(new Error(log)));
    });
    app = await runMcpscope(['--target', `http://127.0.0.1:${port}/mcp`]);
  });
  test.afterAll(async () => {
    await app?.stop();
    everything?.kill();
  });

  test('a failed get-sum, fixed and replayed in both modes', async ({ page }) => {
    await page.goto(app.dashboardLoginUrl);
    await expect(page.getByTestId('connection')).toHaveText('live');
    const client = await chatgpt(app.mcpUrl);
    await client.listTools();
    await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 'two' } }).catch(() => undefined);

    const failed = page.locator('[data-testid="exchange-row"][data-method="tools/call"]');
    await expect(failed).toHaveCount(1);
    await expect(failed).not.toHaveAttribute('data-status', 'ok');
    await openReplay(page, failed);
    // The session's tools/list feeds the tool picker, which writes a valid skeleton.
    await page.getByTestId('replay-tool-picker').selectOption('get-sum');
    await expect(page.getByTestId('replay-editor').locator('.view-lines')).toContainText('"a": 0');
    await editMessage(page, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get-sum', arguments: { a: 1, b: 2 } } });
    for (const mode of ['session', 'fresh'] as const) {
      await page.getByTestId(`replay-mode-${mode}`).check();
      await page.getByTestId('replay-send').click();
      await expect(page.getByTestId('replay-result')).toContainText(mode === 'fresh' ? 'fresh session' : 'same session');
      await expect(page.getByTestId('replay-result')).toHaveAttribute('data-status', 'ok');
      await expect(page.getByTestId('replay-diff').locator('.editor.modified .lines-content > .view-lines')).toContainText('The sum of 1 and 2 is 3.');
    }
    // Volatile fields: the ids differ on every call; masked by default, shown on request.
    const modified = page.getByTestId('replay-diff').locator('.editor.modified .lines-content > .view-lines');
    await expect(modified).toContainText('‹volatile›');
    await page.getByTestId('replay-ignore-volatile').uncheck();
    await expect(modified).toContainText('mcpscope-replay-');

    // A server request during a replay (elicitation) is shown to the user, who declines it.
    await page.getByTestId('replay-tool-picker').selectOption('trigger-elicitation-request');
    await page.getByTestId('replay-mode-fresh').check();
    await page.getByTestId('replay-send').click();
    const ask = page.getByTestId('replay-input');
    await expect(ask).toHaveAttribute('data-method', 'elicitation/create');
    await page.getByTestId('replay-input-decline').click();
    await expect(ask).toHaveCount(0);
    await expect(page.getByTestId('replay-result')).toHaveAttribute('data-status', 'ok');
    await expect(modified).toContainText('decline');
    await page.screenshot({ path: '../reports/screenshots/replay-everything.png' });
    await client.close();
  });
});
