/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The page-side sampler passed to page.evaluate runs in Chromium, hence the DOM types.
/**
 * Live traffic through the real tap while a dashboard follows it: `rate` tools/call a second (two
 * frames each) for `seconds`, from keep-alive clients, each call's send time kept; meanwhile the
 * page notes, once a frame, the highest list position it paints. A call is shown when the page
 * paints its position (the list is in capture order, so call k of the run sits at the list's length
 * before the run plus k; clients in flight at once may swap neighbours by a few milliseconds).
 * Its lag is that paint's wall-clock time minus the call's send time.
 */
import type { Page } from '@playwright/test';
import { Agent, request } from 'undici';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': 'mcpscope-bench/1' };
const CLIENTS = 32;

export interface LiveLag {
  calls: number;
  /** Calls per second actually offered. */
  offered: number;
  /** Each call's lag (ms), sorted; Infinity for a call never painted. */
  lags: number[];
  /** rAF-to-rAF frame times while the traffic ran (ms), sorted. */
  frameTimes: number[];
}

const wallNow = () => performance.timeOrigin + performance.now();

/** Offers `rate` calls/s to `mcpUrl` for `seconds`: each call's send time (wall clock, ms) in send order, and the rate reached. */
async function offer(mcpUrl: string, rate: number, seconds: number): Promise<{ sentAt: number[]; offered: number }> {
  const agent = new Agent({ connections: CLIENTS, pipelining: 1, keepAliveTimeout: 60_000 });
  const sentAt: number[] = [];
  const inFlight: Promise<void>[] = [];
  const total = Math.round(rate * seconds);
  const started = performance.now();
  while (sentAt.length < total) {
    // Every call due by now goes out, so a late timer does not lower the rate.
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    while (sentAt.length < due) {
      const id = sentAt.length;
      sentAt.push(wallNow());
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'live', n: id } } });
      inFlight.push(request(mcpUrl, { method: 'POST', headers: HEADERS, body, dispatcher: agent }).then((res) => res.body.text().then(() => {})));
    }
    await new Promise((r) => setTimeout(r, Math.max(0, started + (sentAt.length / rate) * 1000 - performance.now())));
  }
  const sending = performance.now() - started;
  await Promise.all(inFlight);
  await agent.close();
  return { sentAt, offered: sentAt.length / (sending / 1000) };
}

/** The traffic and the page's paints, then each call's lag. The page must follow the list's end. */
export async function liveLag(page: Page, mcpUrl: string, rate: number, seconds: number, catchUpMs = 30_000): Promise<LiveLag> {
  // An empty capture shows the first-run page until its first exchange: the list is then empty.
  const base = await page.evaluate(() => Number(document.querySelector('[data-testid="timeline"]')?.getAttribute('aria-rowcount') ?? 0));
  await page.evaluate(() => ((window as unknown as { __liveTarget: number }).__liveTarget = Infinity));
  const sampling = page.evaluate(async (deadlineMs) => {
    const w = window as unknown as { __liveTarget: number };
    const paints: [wall: number, position: number][] = [];
    const frames: number[] = [];
    let highest = 0;
    let last = await new Promise<number>((r) => requestAnimationFrame(r));
    const end = last + deadlineMs;
    while (highest < w.__liveTarget && last < end) {
      const now = await new Promise<number>((r) => requestAnimationFrame(r));
      frames.push(now - last);
      last = now;
      let top = 0;
      for (const row of document.querySelectorAll('[data-testid="timeline"] [data-testid="exchange-row"]')) top = Math.max(top, Number(row.getAttribute('aria-rowindex')));
      if (top > highest) {
        highest = top;
        paints.push([performance.timeOrigin + performance.now(), top]);
      }
    }
    return { paints, frames };
  }, seconds * 1000 + catchUpMs);
  const { sentAt, offered } = await offer(mcpUrl, rate, seconds);
  await page.evaluate((target) => ((window as unknown as { __liveTarget: number }).__liveTarget = target), base + sentAt.length);
  const { paints, frames } = await sampling;
  // Paints are in rising position order: one pass pairs each call with the first paint reaching it.
  const lags: number[] = [];
  let p = 0;
  for (let k = 0; k < sentAt.length; k++) {
    while (p < paints.length && paints[p]![1] < base + k + 1) p++;
    lags.push(p < paints.length ? paints[p]![0] - sentAt[k]! : Infinity);
  }
  return { calls: sentAt.length, offered, lags: lags.sort((a, b) => a - b), frameTimes: frames.sort((a, b) => a - b) };
}
