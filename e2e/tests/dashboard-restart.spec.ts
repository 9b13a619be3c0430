// mcpscope killed and started again: with the capture file's kept token the open tab simply
// reconnects; with a new token the tab says so (not "reconnecting" forever), survives a reload
// saying the same, and takes the new URL pasted into it.
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { SCREENSHOTS, openDashboard, row, sdkClient } from '../support/dashboard.js';

test.use({ viewport: { width: 1280, height: 800 } });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function kill9(app: RunningMcpscope): Promise<void> {
  if (app.process.exitCode !== null || app.process.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    app.process.once('exit', () => resolve());
    app.process.kill('SIGKILL');
  });
}

async function call(app: RunningMcpscope, occasion: string): Promise<void> {
  const client = await sdkClient(app.mcpUrl, 'restart-client');
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion, budget: 50 } });
  await client.close();
}

const running: RunningMcpscope[] = [];
test.afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
});

async function start(db: string, uiPort: number, extra: string[] = []): Promise<RunningMcpscope> {
  const app = await runMcpscope(['--db', db, '--ui-port', String(uiPort), ...extra]);
  running.push(app);
  return app;
}

/** mcpscope on a fresh capture file and a fixed dashboard port, its dashboard open with one call. */
async function firstLaunchWithTab(page: Page): Promise<{ db: string; port: number; first: RunningMcpscope }> {
  const db = join(mkdtempSync(join(tmpdir(), 'mcpscope-restart-')), 'capture.db');
  const port = await freePort();
  const first = await start(db, port);
  await openDashboard(page, first);
  await call(first, 'birthday');
  await expect(row(page, 'tools/call')).toHaveCount(1);
  return { db, port, first };
}

test('a restart on the same capture file keeps the token: the open tab reconnects by itself', async ({ page }) => {
  const { db, port, first } = await firstLaunchWithTab(page);

  await kill9(first);
  await expect(page.getByTestId('connection')).toHaveText('down');
  const second = await start(db, port);
  expect(new URL(second.dashboardLoginUrl).searchParams.get('token')).toBe(new URL(first.dashboardLoginUrl).searchParams.get('token'));
  await expect(page.getByTestId('connection')).toHaveText('live', { timeout: 20_000 });
  await call(second, 'wedding');
  await expect(row(page, 'tools/call')).toHaveCount(2);
  await expect(page.getByTestId('token-rejected')).toHaveCount(0);
});

test('a restart with a new token says so, survives a reload, and takes the pasted URL', async ({ page }) => {
  const { db, port, first } = await firstLaunchWithTab(page);

  await kill9(first);
  const second = await start(db, port, ['--token', 'a-brand-new-token-after-restart']);
  const prompt = page.getByTestId('token-rejected');
  await expect(prompt).toContainText('mcpscope restarted with a new token: open the new URL from its banner', { timeout: 20_000 });
  await expect(page.getByTestId('connection-banner')).toHaveCount(0);
  await expect(page.getByTestId('connection')).toHaveText('token refused');
  await page.screenshot({ path: `${SCREENSHOTS}token-rejected.png` });

  // The token left the address bar at the first load; a reload says the same, not "0 exchanges".
  await page.reload();
  await expect(prompt).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('token-input').fill('not-the-token-either-nope');
  await page.getByTestId('token-submit').click();
  await expect(page.getByTestId('token-problem')).toContainText('refused that token too');

  await page.getByTestId('token-input').fill(second.dashboardLoginUrl);
  await page.getByTestId('token-submit').click();
  await expect(page.getByTestId('connection')).toHaveText('live', { timeout: 20_000 });
  await expect(prompt).toHaveCount(0);
  await call(second, 'wedding');
  await expect(row(page, 'tools/call')).toHaveCount(2);
});
