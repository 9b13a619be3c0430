import { beforeEach, describe, expect, it } from 'vitest';
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
});
