// Issue 23, "Capture controls", against the demo server through the tap with the official SDK
// client: Clear hides the rows so far (they stay in the capture: "Show all" brings them back, and
// the clear survives a reload); a mark drops a labelled line into the timeline; Pause keeps the
// calls answered but stores nothing (the dashboard says so), and the pause and the resume are
// lines too. The marks are in the capture: they survive a reload and leave with a JSONL export.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { openDashboard, row, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();

test('clear, mark, pause and resume: the capture keeps what the view hides, and the marks stay', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDashboard(page, proxy.app);
  const client = await sdkClient(proxy.app.mcpUrl, 'controls-client');
  const gift = (occasion: string) => client.callTool({ name: 'suggest_gifts', arguments: { occasion, budget: 60 } });
  await gift('one');
  await gift('two');
  const calls = row(page, 'tools/call');
  await expect(calls).toHaveCount(2);

  // Clear: the rows go from the view, not from the capture.
  await page.getByTestId('capture-clear').click();
  await expect(calls).toHaveCount(0);
  await expect(page.getByTestId('no-match-cleared')).toContainText('still in the capture');
  await gift('after the clear');
  await expect(calls).toHaveCount(1);
  await expect(page.getByTestId('capture-show-all')).toContainText('hidden');

  // A mark: a labelled line under the rows so far.
  await page.getByTestId('capture-mark').click();
  await page.getByTestId('mark-label').fill('deployed v2');
  await page.getByTestId('mark-add').click();
  await expect(page.getByTestId('timeline-mark-label').filter({ hasText: 'deployed v2' })).toBeVisible();
  await gift('after the mark');
  await expect(calls).toHaveCount(2);

  // Pause: the call is answered, nothing is stored, and the dashboard says so.
  await page.getByTestId('capture-pause').click();
  const banner = page.getByTestId('capture-banner');
  await expect(banner).toContainText('paused from the dashboard');
  await expect(banner).toContainText('not stored');
  const answer = await gift('during the pause');
  expect(JSON.stringify(answer.content)).toContain('Gift ideas');
  await expect(page.getByTestId('timeline-mark-label').filter({ hasText: 'capture paused' })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}capture-paused-by-user.png` });
  await page.getByTestId('capture-pause').click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('timeline-mark-label').filter({ hasText: /capture resumed: \d+ frames? forwarded during the pause (was|were) not stored/ })).toBeVisible();
  await gift('after the pause');
  await expect(calls).toHaveCount(3);
  await page.screenshot({ path: `${SCREENSHOTS}capture-controls.png` });

  // A reload keeps the clear (it is in the address) and the marks (they are in the capture).
  await page.reload();
  await expect(calls).toHaveCount(3);
  await expect(page.getByTestId('timeline-mark-label')).toHaveCount(3);
  // Show all: the two rows from before the clear are back; the call during the pause never was stored.
  await page.getByTestId('capture-show-all').click();
  await expect(calls).toHaveCount(5);
  await expect(page.locator('[data-testid="exchange-row"][data-method="tools/call"]').filter({ hasText: 'suggest_gifts' })).toHaveCount(5);

  // The marks leave with a JSONL export.
  await page.getByTestId('export-menu-button').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  const lines = readFileSync((await download.path())!, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { type?: string; kind?: string; label?: string });
  const marks = lines.filter((l) => l.type === 'mark');
  expect(marks.map((l) => l.kind)).toEqual(['mark', 'pause', 'resume']);
  expect(marks[0]!.label).toBe('deployed v2');
  expect(marks[1]!.label).toMatch(/^capture paused/);
  expect(marks[2]!.label).toMatch(/^capture resumed/);
  await client.close();
});
