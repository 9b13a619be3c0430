// The exchange count beside the sessions and conversations: the capture's, also when the browser
// holds only a window of it.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeSummary, ExchangeWindowPage } from '@mcpscope/protocol';
import { exchangeTotal } from './exchange-total.js';
import { createLiveStore } from './live-store.js';
import { LIVE_HELD, LOCAL_LIMIT, WindowFetcher, useWindow, type WindowApi } from './window-store.js';
import { startWindowMode } from './window-mode.js';

const ex = (n: number): ExchangeSummary => ({
  id: String(n), sessionKey: 's', requester: 'client', kind: 'request', method: 'tools/call', status: 'ok', startTs: n, frameSeqs: [n], size: 1, diagnostics: 0, updatedSeq: n,
});
const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ex(from + i));
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const initial = useWindow.getState();
beforeEach(() => useWindow.setState(initial, true));

describe('the exchange total beside the sessions', () => {
  it('counts every exchange held when the capture is held whole', () => {
    const live = createLiveStore(() => {});
    live.queueDelta({ head: 120, exchanges: rows(1, 120) });
    live.flush();
    expect(exchangeTotal(useWindow.getState(), live.getState().index.size)).toBe(120);
  });

  it("is the capture's count, not the rows held, once the capture is read by windows", async () => {
    const live = createLiveStore(() => {});
    /** The proxy's capture: every exchange the live store was sent. */
    let captured = 0;
    const api: WindowApi = {
      exchangeWindow: (_query, _at, limit): Promise<ExchangeWindowPage> =>
        Promise.resolve({ head: captured, offset: captured - limit, exchanges: rows(captured - limit + 1, captured), total: captured, complete: true }),
    };
    const fetcher = new WindowFetcher(api);
    const stop = startWindowMode(live, fetcher, () => []);
    captured = LOCAL_LIMIT + 30;
    live.queueDelta({ head: captured, exchanges: rows(1, captured) });
    live.flush();
    for (let n = captured + 1; n <= LOCAL_LIMIT + 5_000; n += 100) {
      captured = n + 99;
      live.queueDelta({ head: captured, exchanges: rows(n, captured) });
      live.flush();
      await settle();
    }
    expect(live.getState().index.size).toBeLessThanOrEqual(2 * LIVE_HELD);
    // Live traffic reads the window again in batches (list-window.ts REFRESH_MS): the last one
    // brings the capture's count.
    await vi.waitFor(() => expect(exchangeTotal(useWindow.getState(), live.getState().index.size)).toBe(captured));
    stop();
    fetcher.stop();
  });
});
