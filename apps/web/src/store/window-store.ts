/**
 * The timeline's rows of a large capture, held as one window of the server's list
 * (`GET /api/exchanges/window`): the rows on screen plus a margin, their position in the filtered
 * list, and the list's length. The browser never holds the whole capture, so its memory and its
 * work per filter or scroll do not grow with the capture.
 *
 * A capture of up to LOCAL_LIMIT exchanges is held whole instead (live-store.ts): every row is in
 * memory and filters run in the browser. Past it, `windowed` turns on and stays on: at load, or
 * while the dashboard is open (`adopt`: the list held whole becomes the first window, so every row
 * keeps its position and the screen does not move).
 *
 * Invariants: `rows[i]` is the row at position `offset + i` of the list that `key` names; an
 * answer for another key, or older than the last one applied, is dropped. Live traffic joins a
 * window of the unfiltered list that holds its end with no read (`changed`: every new exchange
 * joins that list at its end, list-window.ts); any other window is read again (its rows and the
 * length), never the capture.
 */
import { create } from 'zustand';
import type { ExchangeSummary, ExchangeWindowPage } from '@mcpscope/protocol';
import { ListWindow, type LiveRows } from './list-window.js';
import { orderKey } from './exchange-index.js';

/** Captures up to this many exchanges are held whole in the browser. */
export const LOCAL_LIMIT = 50_000;
/** Newest exchanges the live index keeps in a windowed capture (besides the ones selected or picked). */
export const LIVE_HELD = 2_000;
/** Rows read beyond each edge of the screen, so a scroll shows rows already held. */
export const MARGIN = 150;
/** Largest window asked for (the API's cap is higher). */
const MAX_ROWS = 1200;

export type WindowAt = { offset: number } | { end: true } | { around: string };

export interface WindowApi {
  exchangeWindow(query: { filter: string; from?: number }, at: WindowAt, limit: number, signal?: AbortSignal): Promise<ExchangeWindowPage>;
}

export interface WindowQuery {
  filter: string;
  from?: number;
}

export interface WindowState {
  windowed: boolean;
  /** The query the rows answer (filter and "Clear" point). */
  key: string;
  offset: number;
  rows: ExchangeSummary[];
  /** Length of the filtered list (found so far while `complete` is false). */
  total: number;
  complete: boolean;
  /** Every exchange in the capture, unfiltered (the top bar's count). */
  captureTotal: number;
  /** Set by `locate`: the position of the exchange asked for (-1: not in the list). */
  located?: { id: string; position: number };
}

const keyOf = (q: WindowQuery) => `${q.from ?? ''}\n${q.filter}`;

/** Exchanges in capture order; a later state has a higher `updatedSeq`. */
const liveExchanges: LiveRows<ExchangeSummary> = { order: (ex) => orderKey(ex.id), fresher: (incoming, held) => incoming.updatedSeq >= held.updatedSeq };
const UNFILTERED = keyOf({ filter: '' });

export const useWindow = create<WindowState>(() => ({ windowed: false, key: UNFILTERED, offset: 0, rows: [], total: 0, complete: true, captureTotal: 0 }));

/** The held row at `position`, if any. */
export function rowAt(state: WindowState, position: number): ExchangeSummary | undefined {
  return state.rows[position - state.offset];
}

/** Position of `id` among the held rows, -1 when it is not held. */
export function heldPosition(state: WindowState, id: string): number {
  const at = state.rows.findIndex((r) => r.id === id);
  return at < 0 ? -1 : state.offset + at;
}

/** The query a key names (the inverse of keyOf: `from` never holds a line break). */
function queryOf(key: string): WindowQuery {
  const cut = key.indexOf('\n');
  if (cut < 0) return { filter: key };
  const from = key.slice(0, cut);
  const filter = key.slice(cut + 1);
  return from === '' ? { filter } : { filter, from: Number(from) };
}

/**
 * Reads windows as the screen moves, the filter changes or traffic arrives: a ListWindow of the
 * exchanges (list-window.ts reads, orders and drops the answers), shown in `useWindow` with the
 * capture's count beside it.
 */
export class WindowFetcher {
  private query: WindowQuery = { filter: '' };
  private readonly list: ListWindow<ExchangeSummary, string>;
  private readonly unmirror: () => void;
  private counting = false;
  /**
   * Since the last `refresh`: changes joined the window (`changed`), and whether one could not. Only
   * changes that all joined spare the next read; a refresh no `changed` told of reads.
   */
  private joined = false;
  private stale = false;

  constructor(private readonly api: WindowApi) {
    this.list = new ListWindow<ExchangeSummary, string>(
      async (key, at, limit) => {
        const page = await api.exchangeWindow(queryOf(key), at, limit);
        return { offset: page.offset, rows: page.exchanges, total: page.total, complete: page.complete, ...(page.position !== undefined ? { position: page.position } : {}) };
      },
      { query: UNFILTERED, margin: MARGIN, maxRows: MAX_ROWS, live: liveExchanges as LiveRows<unknown> },
    );
    this.unmirror = this.list.store.subscribe((s) => {
      const patch: Partial<WindowState> = { key: s.query, offset: s.offset, rows: s.rows, total: s.total, complete: s.complete };
      if (s.loaded && s.query === UNFILTERED) patch.captureTotal = s.total;
      useWindow.setState(patch);
    });
  }

  /**
   * A new filter or "Clear" point: the list is another one, read from where the screen is. In a
   * capture held whole the query is only kept, for the moment it outgrows the browser.
   */
  setQuery(query: WindowQuery): void {
    this.query = query;
    if (useWindow.getState().windowed) this.list.setQuery(keyOf(query));
  }

  /**
   * The capture held whole outgrew the browser: `rows` (the whole filtered list, as the view held
   * it) become the window at offset 0, so each row keeps its position; the next read replaces
   * them with the window around the screen.
   */
  adopt(rows: ExchangeSummary[], captureTotal: number): void {
    this.list.hold(keyOf(this.query), rows);
    useWindow.setState({ windowed: true, captureTotal });
  }

  /** The rows on screen (positions in the list), and whether the view follows the end. */
  want(first: number, last: number, follow: boolean): void {
    this.list.want(first, last, follow);
  }

  /**
   * Exchanges changed on the server (`exchanges/update`), or with none given the list changed
   * otherwise (retention, a resync): joined to the window when they can be (see the header), else
   * the next `refresh` reads it. Any filter may drop or take in a row: only the unfiltered list
   * (from a "Clear" point or not) takes every new exchange at its end.
   */
  changed(exchanges?: readonly ExchangeSummary[]): void {
    const joined = exchanges !== undefined && useWindow.getState().windowed && this.query.filter === '' && this.list.absorb(exchanges);
    if (joined) this.joined = true;
    else this.stale = true;
  }

  /** Traffic arrived (or a scan is still counting): read the window again, unless every change joined it. */
  refresh(): void {
    const read = this.stale || !this.joined;
    this.joined = this.stale = false;
    if (read) this.list.refresh();
    if (this.query.filter !== '' || this.query.from !== undefined) this.countCapture();
  }

  /** The unfiltered length, for the top bar, while the window answers a filter. */
  private countCapture(): void {
    if (this.counting) return;
    this.counting = true;
    this.api
      .exchangeWindow({ filter: '' }, { end: true }, 1)
      .then((page) => useWindow.setState({ captureTotal: page.total }))
      .catch(() => {})
      .finally(() => (this.counting = false));
  }

  /** Finds where `id` is in the list and holds the rows around it (`located` says where). */
  async locate(id: string): Promise<number> {
    const position = await this.list.locate(id);
    useWindow.setState({ located: { id, position } });
    return position;
  }

  stop(): void {
    this.list.stop();
    this.unmirror();
  }
}

let fetcher: WindowFetcher | undefined;

/** The fetcher the dashboard's sync started (undefined before, and in a capture held whole). */
export function windowFetcher(): WindowFetcher | undefined {
  return fetcher;
}

export function setWindowFetcher(next: WindowFetcher | undefined): void {
  fetcher?.stop();
  fetcher = next;
}
