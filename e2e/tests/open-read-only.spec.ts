// Issue 23 item 8: `mcpscope open FILE` is read-only and says so. The badge reads
// "read-only: FILE" instead of a green "live"; Compose, Edit & replay and Re-run are disabled
// with a hint on how to replay against a live server; the two imported sessions show distinct
// keys; `mcpscope open --help` prints its usage. A replay made before the export is still marked
// ↻ on the opened file's row, pointing at the imported original (the JSONL carries the link).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { row, rows, SCREENSHOTS, sdkClient } from '../support/dashboard.js';
import { mcpscopeForTests, runOpen } from '../support/mcpscope-process.js';

const proxy = mcpscopeForTests();
const BIN = new URL('../../apps/proxy/bin/mcpscope.js', import.meta.url).pathname;

test('an opened export is read-only and tells its sessions apart', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  for (const name of ['first-client', 'second-client']) {
    const client = await sdkClient(proxy.app.mcpUrl, name);
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40 } });
    await client.close();
  }
  const token = new URL(proxy.app.dashboardLoginUrl).searchParams.get('token')!;
  const headers = { authorization: `Bearer ${token}` };
  // Both calls are stored by the capture's worker moments after they were answered.
  let calls: { id: string; method?: string }[] = [];
  await expect
    .poll(async () => {
      const page0 = (await (await request.get(`${proxy.app.dashboardUrl}/api/exchanges?limit=50`, { headers })).json()) as { exchanges: { id: string; method?: string }[] };
      calls = page0.exchanges.filter((e) => e.method === 'tools/call');
      return calls.length;
    })
    .toBe(2);
  const original = calls[0]!;
  const message = { jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 90 } } };
  const replayed = await request.post(`${proxy.app.dashboardUrl}/api/replay`, { headers, data: { exchangeId: original.id, mode: 'fresh', message } });
  expect(replayed.status()).toBe(200);
  const file = join(mkdtempSync(join(tmpdir(), 'mcpscope-open-')), 'shared.jsonl');
  writeFileSync(file, await (await request.get(`${proxy.app.dashboardUrl}/api/export?format=jsonl`, { headers })).text());

  const help = spawnSync(process.execPath, [BIN, 'open', '--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('mcpscope open FILE');

  const opened = await runOpen(file);
  try {
    await page.goto(opened.dashboardLoginUrl);
    const badge = page.getByTestId('connection');
    await expect(badge).toHaveText('read-only: shared.jsonl');
    await expect(badge).not.toHaveClass(/conn-live/);
    await expect(page.getByTestId('replay-compose')).toBeDisabled();
    await expect(page.getByTestId('rerun-open')).toBeDisabled();

    // Each session shows its own key, not the shared "import:shared.jsonl:" stub.
    const stubs = await rows(page).locator('.col-session .muted').allTextContents();
    const sessions = new Set(await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-session'))));
    expect(new Set(stubs).size).toBe(sessions.size);
    expect(stubs.every((s) => !s.startsWith('import'))).toBe(true);

    // The replay came along: one ↻ mark, and clicking it selects the imported original.
    const mark = page.getByTestId('replay-mark');
    await expect(mark).toHaveCount(1);
    const originalId = await mark.getAttribute('data-replay-of');
    await mark.click();
    await expect(page.locator(`[data-testid="exchange-row"][data-id="${originalId}"]`)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('detail-pane')).toContainText('"budget": 40');
    await page.screenshot({ path: `${SCREENSHOTS}open-replay-link.png` });

    await row(page, 'tools/call').first().click();
    const replayButton = page.getByTestId('replay-button');
    await expect(replayButton).toBeDisabled();
    await expect(replayButton).toHaveAttribute('title', /mcpscope --target URL/);
    await page.screenshot({ path: `${SCREENSHOTS}open-read-only.png` });
  } finally {
    opened.stop();
  }
});
