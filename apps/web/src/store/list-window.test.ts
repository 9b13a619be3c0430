// A list the server owns, held as one window: the rows asked for plus a margin, never an answer
// for another query or one asked before the rows shown, located rows kept, a list still counting
// read again until it is complete.
import { describe, expect, it, vi } from 'vitest';
import { ListWindow, heldRow, type ListAt, type ListPage } from './list-window.js';

/** A server list of `count` numbered rows (a query keeps the multiples of its number), answered when `release` is called. */
function server(count: number) {
  const waiting: (() => void)[] = [];
  let counted = 0;
  const read = (query: string, at: ListAt<number>, limit: number): Promise<ListPage<number>> => {
    const step = Number(query || '1');
    const all = Array.from({ length: Math.floor(count / step) }, (_, i) => (i + 1) * step);
    const position = 'around' in at ? all.indexOf(at.around) : undefined;
    const offset = 'end' in at ? Math.max(0, all.length - limit) : 'offset' in at ? Math.min(at.offset, all.length) : Math.max(0, position! - Math.floor(limit / 2));
    return new Promise((resolve) =>
      waiting.push(() => {
        // Query '7' is counted in three reads, as a scan would.
        const complete = query !== '7' || ++counted >= 3;
        resolve({ offset, rows: all.slice(offset, offset + limit), total: all.length, complete, ...(position !== undefined ? { position } : {}) });
      }),
    );
  };
  const release = async () => {
    const next = waiting.shift();
    next?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return next !== undefined;
  };
  return { read, release, waiting };
}

describe('a list window', () => {
  it('a row the list does not hold, asked for: the rows on screen are read again, the screen stays', async () => {
    const s = server(100_000);
    const list = new ListWindow(s.read, { margin: 10, maxRows: 100 });
    list.want(50_000, 50_019, false);
    await s.release();
    const located = list.locate(-5);
    await s.release();
    expect(await located).toBe(-1);
    await s.release();
    const state = list.store.getState();
    expect(heldRow(state, 50_000)).toBe(50_001);
    expect(heldRow(state, 50_019)).toBe(50_020);
  });

  it('asks for the rows on screen plus its margin, and holds them by position', async () => {
    const s = server(100_000);
    const list = new ListWindow(s.read, { margin: 10, maxRows: 100 });
    list.want(50_000, 50_019, false);
    await s.release();
    const state = list.store.getState();
    expect(state).toMatchObject({ offset: 49_990, total: 100_000, loaded: true });
    expect(state.rows.length).toBe(40);
    expect(heldRow(state, 50_000)).toBe(50_001);
    // Scrolling within what is held asks nothing.
    list.want(49_995, 50_010, false);
    expect(s.waiting.length).toBe(0);
  });

  it('reads live changes in batches: a burst of changes is one read now and one more after refreshMs', async () => {
    const s = server(1000);
    const list = new ListWindow(s.read, { margin: 0, refreshMs: 50 });
    list.want(990, 999, true);
    await s.release();
    for (let change = 0; change < 200; change++) list.refresh();
    expect(s.waiting.length).toBe(1);
    await s.release();
    // The other 199 changes wait for one read, not 199.
    expect(s.waiting.length).toBe(0);
    await vi.waitFor(() => expect(s.waiting.length).toBe(1));
    await s.release();
    expect(s.waiting.length).toBe(0);
    list.stop();
  });

  it('drops an answer for the query it no longer shows', async () => {
    const s = server(1000);
    const list = new ListWindow(s.read, { margin: 0 });
    list.want(0, 9, false);
    list.setQuery('2');
    await s.release(); // the unfiltered read answers after the query changed
    expect(list.store.getState()).toMatchObject({ query: '2', loaded: false, rows: [] });
    await s.release();
    expect(list.store.getState()).toMatchObject({ query: '2', total: 500, loaded: true });
    expect(list.store.getState().rows[0]).toBe(2);
  });

  it('keeps the rows a locate brought over a read asked before it that answers after', async () => {
    const s = server(100_000);
    const list = new ListWindow(s.read, { margin: 0, maxRows: 100 });
    list.want(0, 9, false);
    const located = list.locate(77_777);
    // The locate answers first, then the read asked before it.
    s.waiting.reverse();
    await s.release();
    expect(await located).toBe(77_776);
    await s.release();
    expect(list.store.getState().rows).toContain(77_777);
  });

  it('reads again when an answer replaced the rows the screen had moved to meanwhile', async () => {
    const s = server(100_000);
    const list = new ListWindow(s.read, { margin: 0, maxRows: 100 });
    const located = list.locate(77_777);
    await s.release();
    expect(await located).toBe(77_776);
    // Following the end asks for it; before it answers, the screen is at the located rows (held).
    list.want(99_990, 99_999, true);
    list.want(77_770, 77_780, false);
    await s.release();
    await s.release();
    expect(heldRow(list.store.getState(), 77_775)).toBe(77_776);
  });

  it('reads a list still counting again until it is complete', async () => {
    const s = server(700);
    const list = new ListWindow(s.read, { margin: 0, pollMs: 1 });
    list.setQuery('7');
    await s.release();
    expect(list.store.getState().complete).toBe(false);
    for (let i = 0; i < 50 && !list.store.getState().complete; i++) {
      await new Promise((r) => setTimeout(r, 2));
      await s.release();
    }
    expect(list.store.getState()).toMatchObject({ complete: true, total: 100 });
    list.stop();
  });
});
