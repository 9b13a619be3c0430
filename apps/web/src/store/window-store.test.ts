import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeSummary, ExchangeWindowPage } from '@mcpscope/protocol';
import { useWindow, WindowFetcher, type WindowApi, type WindowAt } from './window-store.js';

const TOTAL = 130_000;
const row = (at: number) => ({ id: String(at + 1) }) as ExchangeSummary;
const pageAt = (offset: number, n: number, position?: number): ExchangeWindowPage => ({ head: TOTAL, offset, exchanges: Array.from({ length: n }, (_, i) => row(offset + i)), total: TOTAL, complete: true, ...(position !== undefined ? { position } : {}) });

/** A proxy whose answers the test sends, in whatever order it likes. */
function heldApi() {
  const asked: { at: WindowAt; answer: (page: ExchangeWindowPage) => void }[] = [];
  const api: WindowApi = {
    exchangeWindow: (_query, at) => new Promise((resolve) => asked.push({ at, answer: resolve })),
  };
  return { api, asked };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A fetcher of a filtered list that located exchange 65001: it holds rows 64,700–65,299. */
async function locatedFetcher() {
  const { api, asked } = heldApi();
  const fetcher = new WindowFetcher(api);
  fetcher.setQuery({ filter: 'status:err' });
  asked[0]!.answer(pageAt(0, 10));
  await settle();
  const located = fetcher.locate('65001');
  asked[1]!.answer(pageAt(64_700, 600, 65_000));
  await located;
  return { fetcher, asked };
}

describe('WindowFetcher', () => {
  // A capture read by windows (one held whole only keeps the query).
  beforeEach(() => useWindow.setState({ windowed: true }));

  it('keeps the rows a locate brought when a window read asked before it answers after it', async () => {
    const { api, asked } = heldApi();
    const fetcher = new WindowFetcher(api);
    fetcher.setQuery({ filter: '"Gift ideas #65001"' });
    asked[0]!.answer(pageAt(65_000, 1));
    await settle();
    // The filter cleared: the end is read, and the selection located, at once.
    fetcher.setQuery({ filter: '' });
    expect(asked[1]!.at).toEqual({ end: true });
    const located = fetcher.locate('65001');
    asked[2]!.answer(pageAt(64_700, 600, 65_000));
    expect(await located).toBe(65_000);
    // The read of the end, asked first, answers last: the selection's rows stay.
    asked[1]!.answer(pageAt(TOTAL - 300, 300));
    await settle();
    const shown = useWindow.getState();
    expect(shown.offset).toBe(64_700);
    expect(shown.rows.some((r) => r.id === '65001')).toBe(true);
    fetcher.stop();
  });

  it('shows a window read asked after the locate once it answers', async () => {
    const { fetcher, asked } = await locatedFetcher();
    fetcher.want(70_000, 70_030, false);
    expect(asked[2]!.at).toEqual({ offset: 70_000 - 150 });
    asked[2]!.answer(pageAt(69_850, 331));
    await settle();
    expect(useWindow.getState().offset).toBe(69_850);
    fetcher.stop();
  });

  it('reads again when an answer replaced the rows the screen had moved to meanwhile', async () => {
    const { fetcher, asked } = await locatedFetcher();
    // Following the end asks for it; before it answers, the screen is at the located rows (held).
    fetcher.want(TOTAL - 30, TOTAL - 1, true);
    fetcher.want(64_990, 65_020, false);
    asked[2]!.answer(pageAt(TOTAL - 330, 330));
    await settle();
    expect(asked[3]?.at).toEqual({ offset: 64_990 - 150 });
    asked[3]!.answer(pageAt(64_840, 331));
    await settle();
    expect(useWindow.getState().rows.some((r) => r.id === '65001')).toBe(true);
    fetcher.stop();
  });

  describe('live exchanges', () => {
    const LIVE_TOTAL = 1000;
    const summary = (id: number, updatedSeq = id, status = 'pending') => ({ id: String(id), updatedSeq, status }) as ExchangeSummary;
    /** A fetcher following the end of a list of LIVE_TOTAL exchanges, ids 1–1000, with rows 701–1000 held. */
    async function following(filter = '') {
      const { api, asked } = heldApi();
      const fetcher = new WindowFetcher(api);
      if (filter !== '') fetcher.setQuery({ filter });
      fetcher.want(LIVE_TOTAL - 30, LIVE_TOTAL - 1, true);
      const page = (total: number): ExchangeWindowPage => ({ head: total, offset: total - 300, exchanges: Array.from({ length: 300 }, (_, i) => summary(total - 299 + i)), total, complete: true });
      asked[asked.length - 1]!.answer(page(LIVE_TOTAL));
      await settle();
      return { fetcher, asked, page };
    }

    it('joins the end of the unfiltered list with no read: new rows add to the count, held rows take their later state', async () => {
      const { fetcher, asked } = await following();
      const reads = asked.length;
      fetcher.changed([summary(1002), summary(1001), summary(1000, 1003, 'ok'), summary(999, 1, 'ok')]);
      fetcher.refresh();
      const shown = useWindow.getState();
      expect(asked.length).toBe(reads);
      expect(shown.total).toBe(LIVE_TOTAL + 2);
      expect(shown.captureTotal).toBe(LIVE_TOTAL + 2);
      expect(shown.rows.slice(-3).map((r) => [r.id, r.status])).toEqual([['1000', 'ok'], ['1001', 'pending'], ['1002', 'pending']]);
      // An older state of a held row does not replace the one shown.
      expect(shown.rows.find((r) => r.id === '999')?.status).toBe('pending');
      fetcher.stop();
    });

    it('reads a filtered list again: a filter may take a row in or leave it out', async () => {
      const { fetcher, asked } = await following('status:err');
      const reads = asked.length;
      fetcher.changed([summary(1001)]);
      fetcher.refresh();
      await vi.waitFor(() => expect(asked.length).toBe(reads + 1));
      fetcher.stop();
    });

    it('applies rows that came while a read was out over its answer, which predates them', async () => {
      const { fetcher, asked, page } = await following();
      fetcher.changed();
      fetcher.refresh();
      await vi.waitFor(() => expect(asked.length).toBe(2));
      fetcher.changed([summary(1001)]);
      // The read answers what the list was before exchange 1001.
      asked[1]!.answer(page(LIVE_TOTAL));
      await settle();
      const shown = useWindow.getState();
      expect(shown.total).toBe(LIVE_TOTAL + 1);
      expect(shown.rows[shown.rows.length - 1]!.id).toBe('1001');
      fetcher.stop();
    });
  });
});
