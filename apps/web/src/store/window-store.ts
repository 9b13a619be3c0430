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
 * answer for another key, or older than the last one applied, is dropped. Live traffic re-reads
 * the window (its rows and the length), never the capture.
 */
import { create } from 'zustand';
import type { ExchangeSummary, ExchangeWindowPage } from '@mcpscope/protocol';

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

export const useWindow = create<WindowState>(() => ({ windowed: false, key: keyOf({ filter: '' }), offset: 0, rows: [], total: 0, complete: true, captureTotal: 0 }));

/** The held row at `position`, if any. */
export function rowAt(state: WindowState, position: number): ExchangeSummary | undefined {
  return state.rows[position - state.offset];
}

/** Position of `id` among the held rows, -1 when it is not held. */
export function heldPosition(state: WindowState, id: string): number {
  const at = state.rows.findIndex((r) => r.id === id);
  return at < 0 ? -1 : state.offset + at;
}

/**
 * Reads windows as the screen moves, the filter changes or traffic arrives. One request at a
 * time; a newer want replaces a waiting one, so a fast scroll asks for where it ends up.
 */
export class WindowFetcher {
  private query: WindowQuery = { filter: '' };
  private wanted: { first: number; last: number; follow: boolean } = { first: 0, last: 0, follow: true };
  private inFlight = false;
  private again = false;
  private serial = 0;
  /**
   * Every read is numbered when asked; an answer older than the one already shown is dropped, so a
   * window read before a `locate` cannot replace the rows it brought (the screen would sit on
   * positions whose rows were thrown away, and nothing would ask again).
   */
  private asked = 0;
  private shown = 0;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly api: WindowApi) {}

  /**
   * A new filter or "Clear" point: the list is another one, read from where the screen is. In a
   * capture held whole the query is only kept, for the moment it outgrows the browser.
   */
  setQuery(query: WindowQuery): void {
    const key = keyOf(query);
    const shown = useWindow.getState();
    if (key === keyOf(this.query) && (!shown.windowed || shown.key === key)) return;
    this.query = query;
    this.serial++;
    if (!shown.windowed) return;
    useWindow.setState({ key, rows: [], offset: 0, total: 0, complete: false });
    this.fetch();
  }

  /**
   * The capture held whole outgrew the browser: `rows` (the whole filtered list, as the view held
   * it) become the window at offset 0, so each row keeps its position; the next read replaces
   * them with the window around the screen.
   */
  adopt(rows: ExchangeSummary[], captureTotal: number): void {
    this.serial++;
    useWindow.setState({ windowed: true, key: keyOf(this.query), offset: 0, rows, total: rows.length, complete: true, captureTotal });
  }

  /** The rows on screen (positions in the list), and whether the view follows the end. */
  want(first: number, last: number, follow: boolean): void {
    this.wanted = { first, last, follow };
    if (!this.covers()) this.fetch();
  }

  /** Whether the rows held show what the screen wants. */
  private covers(): boolean {
    const s = useWindow.getState();
    const { first, last, follow } = this.wanted;
    const held = s.offset <= first && last < s.offset + s.rows.length;
    const atEnd = s.offset + s.rows.length >= s.total;
    return held && (!follow || atEnd);
  }

  /** Traffic arrived (or a scan is still counting): read the window again. */
  refresh(): void {
    this.fetch();
    if (this.query.filter !== '' || this.query.from !== undefined) this.countCapture();
  }

  private counting = false;

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
    const serial = this.serial;
    const asked = ++this.asked;
    const page = await this.api.exchangeWindow(this.query, { around: id }, MAX_ROWS / 2);
    if (serial !== this.serial) return -1;
    // The selection's rows are shown even over a read asked after them: the screen moves to them next.
    this.shown = Math.max(this.shown, asked);
    this.apply(page);
    const position = page.position ?? -1;
    useWindow.setState({ located: { id, position } });
    return position;
  }

  stop(): void {
    this.serial++;
    if (this.pollTimer) clearTimeout(this.pollTimer);
  }

  private fetch(): void {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    const serial = this.serial;
    const wanted = this.wanted;
    const { first, last, follow } = wanted;
    const limit = Math.min(MAX_ROWS, last - first + 1 + 2 * MARGIN);
    const at: WindowAt = follow ? { end: true } : { offset: Math.max(0, first - MARGIN) };
    const asked = ++this.asked;
    this.api
      .exchangeWindow(this.query, at, limit)
      .then((page) => {
        if (serial !== this.serial || asked < this.shown) return;
        this.shown = asked;
        this.apply(page);
      })
      .catch(() => {
        // The connection banner says when the proxy is gone; the next change asks again.
      })
      .finally(() => {
        this.inFlight = false;
        // The screen moved while this read was out, to rows held then: the answer replaced them.
        if (this.again || (this.wanted !== wanted && !this.covers())) {
          this.again = false;
          this.fetch();
        }
      });
  }

  private apply(page: ExchangeWindowPage): void {
    const patch: Partial<WindowState> = { offset: page.offset, rows: page.exchanges, total: page.total, complete: page.complete };
    if (this.query.filter === '' && this.query.from === undefined) patch.captureTotal = page.total;
    useWindow.setState(patch);
    // A search still counting: ask again shortly, until the whole capture is searched.
    if (!page.complete && !this.pollTimer) {
      this.pollTimer = setTimeout(() => {
        this.pollTimer = undefined;
        this.fetch();
      }, 200);
    }
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
