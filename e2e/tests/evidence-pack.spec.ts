// The evidence pack in Chromium: a call fails against a real SDK server whose error leaks a
// bearer token and an api_key in a URL; the detail pane shows the verdict at the top; one click
// on "Evidence pack" downloads a file that holds the verdict and none of the planted secrets.
// Then the same from the conversation header, as one HTML file.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { leakyServer, PLANTED } from '../../apps/proxy/test/support/leaky-error-server.js';
import { findSecrets } from '../../apps/proxy/test/support/secret-scan.js';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { startSdkServer, type SdkServer } from '../../apps/proxy/test/support/sdk-server.js';

let upstream: SdkServer;
let app: RunningMcpscope;

test.beforeAll(async () => {
  upstream = await startSdkServer(leakyServer, 'stateful');
  app = await runMcpscope(['--target', upstream.url]);
});

test.afterAll(async () => {
  await app?.stop();
  await upstream?.close();
});

const planted = [PLANTED.bearer, PLANTED.apiKey];

test('a failed call: its verdict on top, and one click writes an evidence pack with no secret in it', async ({ page }) => {
  await openDashboard(page, app);
  const client = await sdkClient(app.mcpUrl, 'evidence-client');
  expect((await client.callTool({ name: 'fetch-report', arguments: {} })).isError).toBe(true);

  await row(page, 'tools/call', 'business_error').click();
  const detail = page.getByTestId('detail-pane');
  const verdict = detail.getByTestId('verdict');
  await expect(verdict).toBeVisible();
  const title = (await verdict.locator('.verdict-title').textContent())!;
  expect(title.length).toBeGreaterThan(0);
  // The verdict comes first in the pane, above the frames.
  const [verdictTop, firstFrameTop] = await Promise.all([verdict.boundingBox(), detail.getByTestId('frame-card').first().boundingBox()]);
  expect(verdictTop!.y).toBeLessThan(firstFrameTop!.y);

  const [download] = await Promise.all([page.waitForEvent('download'), detail.getByTestId('evidence-pack').click()]);
  expect(download.suggestedFilename()).toMatch(/^mcpscope-evidence-exchange-[\w.]+\.md$/);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(findSecrets(text, planted)).toEqual([]);
  expect(text).toContain(title);
  expect(text).toContain('## The pack as JSON');
  await expect(detail.getByTestId('evidence')).toContainText('Saved mcpscope-evidence-exchange-');
  await page.screenshot({ path: `${SCREENSHOTS}evidence-pack.png` });
  await client.close();
});

test('from the conversation header: the conversation as one HTML file, with a control replay of its failed call', async ({ page }) => {
  await openDashboard(page, app);
  const client = await sdkClient(app.mcpUrl, 'evidence-client-2');
  expect((await client.callTool({ name: 'fetch-report', arguments: {} })).isError).toBe(true);
  await page.getByTestId('conversation-item').filter({ hasText: 'evidence-client-2' }).getByTestId('conversation-choose').click();
  const header = page.getByTestId('conversation-header');
  await expect(header).toContainText('evidence-client-2');
  await header.locator('.evidence-options summary').click();
  await header.getByTestId('evidence-html').check();
  await header.getByTestId('evidence-replay').check();
  const [download] = await Promise.all([page.waitForEvent('download'), header.getByTestId('evidence-pack').click()]);
  expect(download.suggestedFilename()).toMatch(/^mcpscope-evidence-conversation-c\d+\.html$/);
  const html = readFileSync((await download.path())!, 'utf8');
  expect(findSecrets(html, planted)).toEqual([]);
  expect(html).not.toMatch(/<script/i);
  expect(html).toContain('class="verdict"');
  expect(html).toContain('Compared with the captured answer: <strong>same</strong>');
  await client.close();
});
