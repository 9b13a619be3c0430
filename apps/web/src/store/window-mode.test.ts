import { beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeSummary, ExchangeWindowPage } from '@mcpscope/protocol';
import { buildViewFilter } from '../filter/filter-lang.js';
import { createLiveStore, type LiveStore } from './live-store.js';
import { LIVE_HELD, LOCAL_LIMIT, WindowFetcher, rowAt, useWindow, type WindowApi, type WindowAt } from './window-store.js';
import { startWindowMode } from './window-mode.js';

const ex = (n: number, updatedSeq = n): ExchangeSummary => ({
  id: String(n), sessionKey: 's', requester: 'client', kind: 'request', method: 'tools/call', status: n % 3 === 0 ? 'protocol_error' : 'ok', startTs: n, frameSeqs: [n], size: 1, diagnostics: 0, updatedSeq,
});
/** Rows `from`..`to` (inclusive), oldest first. */
const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ex(from + i));

/** A proxy that notes each window read and never answers (what the screen shows meanwhile is the point). */
function notingApi() {
  const asked: WindowAt[] = [];
  const api: WindowApi = { exchangeWindow: (_query, at) => (asked.push(at), new Promise<ExchangeWindowPage>(() => {})) };
  return { api, asked };
}

const initial = useWindow.getState();
beforeEach(() => useWindow.setState(initial, true));

function liveStore(): LiveStore {
  return createLiveStore(() => {});
}

describe('a live capture that outgrows the browser', () => {
  it('becomes a windowed one in place: the filter, the rows at each position and the count stay, with no read that blanks the screen', () => {
    const live = liveStore();
    const { api, asked } = notingApi();
    const fetcher = new WindowFetcher(api);
    const filter = 'status:err';
    live.getState().setPredicate(buildViewFilter(filter, undefined, () => undefined).predicate);
    // The dashboard keeps the window's query while the capture is held whole: nothing is read.
    fetcher.setQuery({ filter });
    expect(asked).toEqual([]);
    const stop = startWindowMode(live, fetcher, () => ['3']);
    live.queueDelta({ head: LOCAL_LIMIT, exchanges: rows(1, LOCAL_LIMIT) });
    live.flush();
    expect(useWindow.getState().windowed).toBe(false);
    const before = live.getState().view.ids.slice();

    live.queueDelta({ head: LOCAL_LIMIT + 30, exchanges: rows(LOCAL_LIMIT + 1, LOCAL_LIMIT + 30) });
    live.flush();
    const win = useWindow.getState();
    expect(win.windowed).toBe(true);
    expect(win.key).toContain(filter);
    expect(win.total).toBe(before.length + 10);
    expect(win.captureTotal).toBe(LOCAL_LIMIT + 30);
    for (const at of [0, 1, 777, 12_345, before.length - 1]) expect(rowAt(win, at)?.id).toBe(before[at]);
    expect(asked).toEqual([]);
    // The screen held where it was: a row already held is not read again.
    fetcher.want(12_000, 12_040, false);
    expect(asked).toEqual([]);
    // The live index let go of what the window now holds.
    expect(live.getState().index.size).toBeLessThanOrEqual(LIVE_HELD + 1);
    expect(live.getState().index.get('3')).toBeDefined();
    // Traffic now re-reads the window, from where the screen is.
    live.queueDelta({ head: LOCAL_LIMIT + 31, exchanges: rows(LOCAL_LIMIT + 31, LOCAL_LIMIT + 31) });
    live.flush();
    expect(asked[0]).toEqual({ offset: 12_000 - 150 });
    stop();
    fetcher.stop();
  });

  it('a capture under the limit stays held whole', () => {
    const live = liveStore();
    const { api, asked } = notingApi();
    const fetcher = new WindowFetcher(api);
    const stop = startWindowMode(live, fetcher, () => []);
    live.queueDelta({ head: LOCAL_LIMIT, exchanges: rows(1, LOCAL_LIMIT) });
    live.flush();
    expect(useWindow.getState().windowed).toBe(false);
    expect(live.getState().index.size).toBe(LOCAL_LIMIT);
    expect(asked).toEqual([]);
    stop();
    fetcher.stop();
  });
});

describe('the live index of a windowed capture', () => {
  it('stays bounded through 200,000 live exchanges, keeping the newest rows and the pinned ones', () => {
    const live = liveStore();
    const { api } = notingApi();
    const fetcher = new WindowFetcher(api);
    useWindow.setState({ windowed: true });
    const pinned = ['5', '150000'];
    const stop = startWindowMode(live, fetcher, () => pinned);
    const ceiling = 2 * LIVE_HELD + pinned.length;
    let most = 0;
    for (let n = 1; n <= 200_000; n += 500) {
      const batch = rows(n, n + 499);
      // The pinned call is answered late: its summary changes while it is held.
      if (n === 180_001) batch.push({ ...ex(5, n), status: 'ok', latencyMs: 12 });
      live.queueDelta({ head: n + 499, exchanges: batch });
      live.flush();
      const { index, view } = live.getState();
      most = Math.max(most, index.size);
      expect(view.size).toBeLessThanOrEqual(index.size);
    }
    const { index } = live.getState();
    expect(most).toBeLessThanOrEqual(ceiling);
    expect(index.get('5')?.latencyMs).toBe(12);
    expect(index.get('150000')).toBeDefined();
    for (let n = 200_000 - LIVE_HELD + 1; n <= 200_000; n++) expect(index.get(String(n))).toBeDefined();
    expect(index.get('100000')).toBeUndefined();
    stop();
    fetcher.stop();
  });
});
