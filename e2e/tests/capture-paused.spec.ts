// In Chromium: the capture file's disk fills up while the demo server is in use.
// The built mcpscope runs on a 16 MB tmpfs of its own (a private mount namespace, `unshare -rm`),
// which the test fills to the last byte through /proc/PID/root. The client's calls keep being
// answered; the dashboard says "capture paused: disk full"; once the filler is deleted the banner
// goes away without a restart and the next call appears in the timeline.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';
import { openDashboard, row, sdkClient, SCREENSHOTS } from '../support/dashboard.js';

let app: RunningMcpscope;
let dir: string;
test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpscope-e2e-full-'));
  const wrap = ['unshare', '-rm', 'sh', '-c', 'mount -t tmpfs -o size=16m tmpfs "$0" && exec "$@"', dir];
  app = await runMcpscope([], {}, { wrap, dbFile: join(dir, 'capture.db') });
});
test.afterAll(async () => {
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a full disk pauses capture, not the traffic; the dashboard says so and recovers by itself', async ({ page }) => {
  await openDashboard(page, app);
  const client = await sdkClient(app.mcpUrl, 'disk-full-client');
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } });
  await expect(row(page, 'tools/call', 'ok')).toHaveCount(1);
  await expect(page.getByTestId('capture-banner')).toHaveCount(0);

  const filler = `/proc/${app.process.pid}/root${dir}/filler`;
  try {
    writeFileSync(filler, Buffer.alloc(16 * 1024 * 1024));
  } catch {
    // ENOSPC: the file system is full now, which is the point.
  }
  // The calls are still answered while nothing can be stored. SQLite first writes into the room
  // its file and WAL already hold on disk, so capture pauses at the first write that needs a new
  // block: calls go on until the banner says so (a bound, not a wait: each call is answered first).
  const banner = page.getByTestId('capture-banner');
  for (let i = 0; (await banner.count()) === 0; i++) {
    expect(i, 'capture never paused on a full disk').toBeLessThan(500);
    const answer = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: `full disk ${i}`, budget: 60 } });
    expect(JSON.stringify(answer.content)).toContain('Gift ideas');
  }
  await expect(banner).toContainText('capture paused: disk full');
  await expect(banner).toContainText('still flows through the tap');
  await page.screenshot({ path: `${SCREENSHOTS}capture-paused.png` });

  unlinkSync(filler);
  await expect(banner).toHaveCount(0, { timeout: 20_000 });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'after', budget: 60 } });
  // The first call and the one after recovery at least; the ones during the pause were not stored.
  await expect.poll(() => row(page, 'tools/call', 'ok').count()).toBeGreaterThanOrEqual(2);
  await client.close();
});
