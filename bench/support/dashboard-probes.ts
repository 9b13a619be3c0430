/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The page-side functions passed to page.evaluate run in Chromium, hence the DOM types.
/**
 * What the large-capture dashboard bench reads from a page: first row, long tasks, heap, the
 * renderer's RSS, a filter typed until its answer is painted, frame times while scrolling, a row
 * click until its detail is shown. Each waits for a condition on the page, polled once a frame.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Page } from '@playwright/test';

/** Installed before the page's scripts: every long task (> 50 ms on the main thread) is kept. */
export const LONG_TASKS_SCRIPT = `
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });
`;

export interface LongTask {
  start: number;
  duration: number;
}

export function longTasks(page: Page): Promise<LongTask[]> {
  return page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks);
}

/** Navigation → the first exchange row (or the first-run page of an empty capture) painted, ms from navigation start. */
export async function openDashboard(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector('[data-testid="exchange-row"], [data-testid="first-run"]') !== null, undefined, { timeout: 120_000, polling: 'raf' });
  return page.evaluate(() => performance.now());
}

/** Waits until the status line counts `exchanges` (a dashboard that loads every exchange takes minutes at a million). */
export async function everyExchangeCounted(page: Page, exchanges: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="count"]')?.textContent?.split(' ')[0] ?? 0) >= n, exchanges, { timeout: 600_000, polling: 'raf' });
}

export async function heapAfterGcMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1e6;
}

function children(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/PID/stat, after the command in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      out.set(ppid, [...(out.get(ppid) ?? []), Number(name)]);
    } catch {
      // The process ended while the table was read.
    }
  }
  return out;
}

/**
 * RSS (MB) of the page's renderer: of the browser's descendant processes started as
 * `--type=renderer`, the largest (one page is open; a spare renderer Chromium keeps warm is small).
 */
export function rendererRssMb(browserPid: number): number {
  const tree = children();
  const todo = [browserPid];
  let largest = 0;
  while (todo.length > 0) {
    const pid = todo.pop()!;
    todo.push(...(tree.get(pid) ?? []));
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      largest = Math.max(largest, kb / 1024);
    } catch {
      // Gone meanwhile.
    }
  }
  return largest;
}

/**
 * How a filter's answer shows: rows it keeps, the page saying the whole capture holds none,
 * neither within the time allowed, or the page gone (a render threw and the app unmounted).
 */
export type Answer = 'rows' | 'none' | 'timeout' | 'gone';

/** How long a filter may take to answer before the reading gives up (ms: Infinity). */
export const FILTER_TIMEOUT_MS = 180_000;

/**
 * Types `text` into the filter the way an input event does; ms until the page shows its answer:
 * rows (the status line counts at least one, and not the whole capture, and a row is painted;
 * with `errorsOnly`, every painted row is an error) or "No exchange matches this filter."
 * (searched to the end). The filters measured keep fewer rows than the capture holds, so a count
 * equal to the capture's is the unfiltered list still on screen. Clearing (`''`) waits for the
 * unfiltered rows. A dashboard that searches the capture a part at a time and offers "Search
 * older" has it clicked as soon as it shows, as a user waiting for the answer would: `clicks`
 * counts them. After FILTER_TIMEOUT_MS: Infinity, 'timeout'; the filter input gone from the page:
 * Infinity, 'gone'.
 */
export function typeFilter(page: Page, text: string, errorsOnly = false): Promise<{ ms: number; answer: Answer; clicks: number }> {
  return page.evaluate(
    async ({ text, errorsOnly, timeoutMs }) => {
      const input = document.querySelector<HTMLInputElement>('[data-testid="filter-input"]')!;
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      // Until the new list answers, the status line may still count the unfiltered list.
      const everything = Number(document.querySelector('[data-testid="count"]')?.textContent?.split(' ')[0] ?? 0);
      const t0 = performance.now();
      let clicks = 0;
      setValue.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // No named functions in here: the bundler's name helper does not exist in the page.
      for (;;) {
        const rows = [...document.querySelectorAll('[data-testid="exchange-row"]')];
        const counted = Number(document.querySelector('[data-testid="filter-status"] strong')?.textContent ?? 0);
        const errors = rows.every((r) => r.getAttribute('data-status') !== 'ok' && r.getAttribute('data-status') !== 'pending');
        if (text === '' ? rows.length > 0 && counted === 0 : counted > 0 && counted !== everything && rows.length > 0 && (!errorsOnly || errors)) return { ms: performance.now() - t0, answer: 'rows' as const, clicks };
        if (text !== '' && document.querySelector('[data-testid="no-match"]')?.textContent?.startsWith('No exchange matches this filter.')) return { ms: performance.now() - t0, answer: 'none' as const, clicks };
        if (performance.now() - t0 > timeoutMs) return { ms: Infinity, answer: 'timeout' as const, clicks };
        if (!input.isConnected) return { ms: Infinity, answer: 'gone' as const, clicks };
        const older = document.querySelector<HTMLButtonElement>('[data-testid="search-more"]');
        if (older) {
          older.click();
          clicks++;
        }
        await new Promise((r) => requestAnimationFrame(r));
      }
    },
    { text, errorsOnly, timeoutMs: FILTER_TIMEOUT_MS },
  );
}

/**
 * Scrolls the timeline to its middle and waits until rows are painted there: a row whose
 * `aria-rowindex` is near the middle, or, on a timeline whose rows carry none (one that holds
 * every row), a row inside the scroller's view.
 */
export async function scrollToMiddle(page: Page): Promise<void> {
  await page.getByTestId('timeline').evaluate((el) => {
    el.scrollTop = (el.scrollHeight - el.clientHeight) / 2;
  });
  await page.waitForFunction(
    () => {
      const el = document.querySelector<HTMLElement>('[data-testid="timeline"]')!;
      const half = Number(el.getAttribute('aria-rowcount')) / 2;
      const view = el.getBoundingClientRect();
      return [...el.querySelectorAll('[data-testid="exchange-row"]')].some((r) => {
        const at = r.getAttribute('aria-rowindex');
        if (at !== null) return Math.abs(Number(at) - half) < 100;
        const box = r.getBoundingClientRect();
        return box.bottom > view.top && box.top < view.bottom;
      });
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
}

/** rAF-to-rAF times over `frames` frames, scrolling the timeline by `step` px each frame (0: idle). */
export function frameTimes(page: Page, frames: number, step: number): Promise<number[]> {
  return page.evaluate(
    async ({ frames, step }) => {
      const el = document.querySelector<HTMLElement>('[data-testid="timeline"]')!;
      const out: number[] = [];
      let last = await new Promise<number>((r) => requestAnimationFrame(r));
      for (let i = 0; i < frames; i++) {
        if (step) el.scrollTop += step;
        const now = await new Promise<number>((r) => requestAnimationFrame(r));
        out.push(now - last);
        last = now;
      }
      return out;
    },
    { frames, step },
  );
}

/** Clicks the painted row `nth` from the top (on screen or in the margin above it); ms until the detail pane shows that exchange. */
export function clickRow(page: Page, nth: number): Promise<number> {
  return page.evaluate(async (nth) => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="exchange-row"]')].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
    const row = rows[Math.min(nth, rows.length - 1)]!;
    const loaded = '[data-testid="detail-pane"][aria-label="Exchange detail"]';
    const before = document.querySelector(loaded)?.textContent;
    const t0 = performance.now();
    row.click();
    for (;;) {
      const shown = document.querySelector(loaded);
      if (shown && shown.textContent !== before && row.getAttribute('aria-selected') === 'true') return performance.now() - t0;
      if (performance.now() - t0 > 30_000) throw new Error('row click: no detail in 30 s');
      await new Promise((r) => requestAnimationFrame(r));
    }
  }, nth);
}

/** Scrolls to the end of the timeline; whether the row at the list's last position is painted on screen. */
export async function newestRowReachable(page: Page): Promise<boolean> {
  await page.getByTestId('timeline').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  return page
    .waitForFunction(
      () => {
        const el = document.querySelector<HTMLElement>('[data-testid="timeline"]')!;
        const last = el.querySelector<HTMLElement>(`[aria-rowindex="${el.getAttribute('aria-rowcount')}"]`);
        if (!last) return false;
        const box = last.getBoundingClientRect();
        const view = el.getBoundingClientRect();
        return box.bottom <= view.bottom + 1 && box.top >= view.top;
      },
      undefined,
      { timeout: 30_000, polling: 'raf' },
    )
    .then(() => true)
    .catch(() => false);
}

/** Installed before the page's scripts: every response stays in resource timing (Chromium keeps 250 by default). */
export const RESOURCE_TIMING_SCRIPT = 'performance.setResourceTimingBufferSize(1_000_000);';

/**
 * A dashboard that reads every door record page by page (`GET /api/requests?after=…&limit=…`,
 * from `after=0`): ms from navigation until the page holding the newest record (id `head`) was
 * received. NaN when it did not start at `after=0` (it reads door records by windows, when shown).
 */
export async function doorRecordsReadMs(page: Page, head: number): Promise<number> {
  const end = await page.waitForFunction(
    (head) => {
      const pages = performance
        .getEntriesByType('resource')
        .map((e) => ({ url: new URL(e.name), end: (e as PerformanceResourceTiming).responseEnd }))
        .filter((p) => p.url.pathname === '/api/requests' && p.url.searchParams.has('after'));
      // -1, not NaN: the wait ends on a truthy value.
      if (!pages.some((p) => p.url.searchParams.get('after') === '0')) return -1;
      const last = pages.find((p) => Number(p.url.searchParams.get('after')) < head && head <= Number(p.url.searchParams.get('after')) + Number(p.url.searchParams.get('limit')));
      return last && last.end > 0 ? last.end : false;
    },
    head,
    { timeout: 600_000, polling: 250 },
  );
  const ms = (await end.jsonValue()) as number;
  return ms < 0 ? NaN : ms;
}
