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
 *
 * Where the lag goes (`stages`): WS_PROBE_SCRIPT, installed before the page's scripts, keeps each
 * `frames/add` message with its arrival time; afterwards each call's request frame is found in them
 * by its JSON-RPC id, which splits the lag into send → recorded by the tap (the frame's `ts`),
 * recorded → received by the page (the tick's write, the hub's flush, the socket), and received →
 * painted. The page and the tap read the same wall clock (one machine).
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
  /** Each stage of the calls' lag (ms), sorted; calls the probe did not see are left out. */
  stages: LiveStages;
  /** The lags of the calls sent WARM_MS or more after the first (a tap just started is still compiling its code), sorted. */
  warm: number[];
}

/** Calls sent this long after the first make the `warm` lags. */
export const WARM_MS = 5000;

export interface LiveStages {
  /** The call sent → its request frame recorded by the tap (`ts`). */
  toTap: number[];
  /** Recorded → its `frames/add` received by the page. */
  toPage: number[];
  /** Received → its row painted. */
  toPaint: number[];
}

/** Keeps every `frames/add` the page receives with its arrival (wall clock); read back by `received`. */
export const WS_PROBE_SCRIPT = `
window.__framesIn = [];
{
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data === 'string' && e.data.startsWith('{"type":"frames/add"')) window.__framesIn.push([performance.timeOrigin + performance.now(), e.data]);
      });
    }
  };
}
`;

/** For each call id seen in a `frames/add`: its request frame's `ts` and when the page received it. */
async function received(page: Page): Promise<Map<number, [ts: number, at: number]>> {
  const seen = await page.evaluate(() => {
    const out: [id: number, ts: number, at: number][] = [];
    for (const [at, data] of (window as unknown as { __framesIn?: [number, string][] }).__framesIn ?? []) {
      const event = JSON.parse(data) as { frames: { direction: string; ts: number; raw: string }[] };
      for (const f of event.frames) {
        if (f.direction !== 'c2s' || !f.raw.includes('"tools/call"')) continue;
        const id = (JSON.parse(f.raw) as { id?: unknown }).id;
        if (typeof id === 'number') out.push([id, f.ts, at]);
      }
    }
    return out;
  });
  return new Map(seen.map(([id, ts, at]) => [id, [ts, at]]));
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
  const seen = await received(page);
  // Paints are in rising position order: one pass pairs each call with the first paint reaching it.
  const lags: number[] = [];
  const warm: number[] = [];
  const stages: LiveStages = { toTap: [], toPage: [], toPaint: [] };
  let p = 0;
  for (let k = 0; k < sentAt.length; k++) {
    while (p < paints.length && paints[p]![1] < base + k + 1) p++;
    const paintedAt = p < paints.length ? paints[p]![0] : Infinity;
    lags.push(paintedAt - sentAt[k]!);
    if (sentAt[k]! - sentAt[0]! >= WARM_MS) warm.push(paintedAt - sentAt[k]!);
    const got = seen.get(k);
    if (!got) continue;
    stages.toTap.push(got[0] - sentAt[k]!);
    stages.toPage.push(got[1] - got[0]);
    stages.toPaint.push(paintedAt - got[1]);
  }
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  return {
    calls: sentAt.length,
    offered,
    lags: sorted(lags),
    frameTimes: sorted(frames),
    warm: sorted(warm),
    stages: { toTap: sorted(stages.toTap), toPage: sorted(stages.toPage), toPaint: sorted(stages.toPaint) },
  };
}
