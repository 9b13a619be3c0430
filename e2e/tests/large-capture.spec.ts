// A capture past the size where a browser-held list breaks (spreading every id into one call
// overflows V8's stack from ~125,000 exchanges): built through the real capture pipeline, then scrolled to the middle,
// filtered, cleared and searched in Chromium. The browser holds a window of it, so rows far from
// the top are read from the server when scrolled to; each is checked against the API's list.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ExchangeWindowPage } from '@mcpscope/protocol';
import { buildCaptureFile } from '../../bench/support/dashboard-traffic.js';
import { runMcpscope, type RunningMcpscope } from '../support/mcpscope-process.js';

/** Past ~125,000, where a list rebuilt by spreading its ids would overflow the stack. MCPSCOPE_E2E_LARGE_DB names a capture built before (local runs on a busy machine). */
const EXCHANGES = 130_000;
const ROW_HEIGHT = 26;

let app: RunningMcpscope;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dbFile = process.env.MCPSCOPE_E2E_LARGE_DB ?? join(mkdtempSync(join(tmpdir(), 'mcpscope-e2e-large-')), 'capture.db');
  if (!process.env.MCPSCOPE_E2E_LARGE_DB) buildCaptureFile(dbFile, EXCHANGES);
  app = await runMcpscope([], {}, { dbFile });
});
test.afterAll(async () => {
  await app?.stop();
});

/** The exchange at `position` of the filtered list, as the API answers. */
async function idAt(filter: string, position: number): Promise<string> {
  const token = new URL(app.dashboardLoginUrl).searchParams.get('token');
  const res = await fetch(`${app.dashboardUrl}/api/exchanges/window?filter=${encodeURIComponent(filter)}&offset=${position}&limit=1`, { headers: { authorization: `Bearer ${token}` } });
  const page = (await res.json()) as ExchangeWindowPage;
  return page.exchanges[0]!.id;
}

/** Scrolls the timeline so row `position` is near the top, the way a drag of the scrollbar does. */
async function scrollToRow(page: Page, position: number): Promise<void> {
  await page.getByTestId('timeline').evaluate((el, { position, rowHeight }) => {
    const range = el.scrollHeight - el.clientHeight;
    const list = Number(el.getAttribute('aria-rowcount')) * rowHeight - (el.clientHeight - rowHeight);
    el.scrollTop = (position * rowHeight * range) / Math.max(range, list);
  }, { position, rowHeight: ROW_HEIGHT });
}

test('a capture of 130,000 exchanges scrolls, filters, clears and searches', async ({ page }) => {
  const pageErrors: Error[] = [];
  page.on('pageerror', (err) => pageErrors.push(err));
  await page.goto(app.dashboardLoginUrl);
  await expect(page.getByTestId('count')).toHaveText(`${EXCHANGES} exchanges`);
  const timeline = page.getByTestId('timeline');
  // Following the newest rows: the last one is on screen.
  await expect(timeline.locator(`[aria-rowindex="${EXCHANGES}"]`)).toBeVisible();

  // The middle of the capture: the row there is the one the API lists at that position.
  const middle = EXCHANGES / 2;
  await scrollToRow(page, middle);
  const far = timeline.locator(`[aria-rowindex="${middle + 1}"]`);
  await expect(far).toHaveAttribute('data-id', await idAt('', middle));

  // A filter the store counts: every row shown is an error, and the count says how many.
  const filter = page.getByTestId('filter-input');
  await filter.fill('status:err');
  await expect(page.getByTestId('filter-status')).toContainText(new RegExp(`\\b[1-9]\\d* of ${EXCHANGES}`));
  await expect(timeline.getByTestId('exchange-row').first()).toBeVisible();
  // A result a host rejects (schema-invalid) is an error though JSON-RPC says ok: its badge names the rule.
  const statuses = await timeline.getByTestId('exchange-row').evaluateAll((rows) => rows.map((r) => (r.querySelector('[data-broke]') ? 'rejected' : r.getAttribute('data-status'))));
  expect(statuses.length).toBeGreaterThan(0);
  for (const s of statuses) expect(['protocol_error', 'business_error', 'transport_error', 'invalid', 'rejected']).toContain(s);

  // Cleared: every row is back and the page stays whole, still scrollable to the middle.
  await page.getByTestId('filter-input').fill('');
  await expect(page.getByTestId('filter-status')).not.toContainText(' of ');
  await scrollToRow(page, middle);
  await expect(far).toHaveAttribute('data-id', await idAt('', middle));

  // A body search: the one exchange whose answer says it, from the middle of the capture, found
  // without asking for more; opening it shows its detail.
  await filter.fill('"Gift ideas #65001"');
  const found = timeline.getByTestId('exchange-row');
  await expect(found).toHaveCount(1);
  await expect(found).toHaveAttribute('data-id', await idAt('"Gift ideas #65001"', 0));
  await found.click();
  await expect(page.getByTestId('detail-pane')).toContainText('"id": 65001');

  // Back to everything: the selected row, far from the end, is brought into view.
  await filter.fill('');
  await expect(timeline.locator(`[data-id="${await idAt('"Gift ideas #65001"', 0)}"]`)).toBeVisible();
  expect(pageErrors.map((e) => e.message)).toEqual([]);
});
