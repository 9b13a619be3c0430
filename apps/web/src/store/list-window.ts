/**
 * A list the server owns, held as one window: the rows on screen plus a margin, their position in
 * the list, and the list's length. Door records and sessions of a big capture are read this way
 * (`GET /api/requests/window`, `GET /api/sessions/window`), so what the browser holds and does per
 * scroll does not grow with the capture. Rows are drawn by position with use-fixed-rows.ts.
 *
 * Invariants: `rows[i]` is the row at position `offset + i` of the list `query` names; an answer
 * for another query, or asked before the one already applied, is dropped. One read at a time: a
 * newer want replaces a waiting one, so a fast scroll asks for where it ends up; when a read
 * answers, the rows held cover what the screen wants last, or another read is asked.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';

/** Where a window starts: a position, the end of the list, or around one row (by its key). */
export type ListAt<K> = { offset: number } | { end: true } | { around: K };

export interface ListPage<T> {
  offset: number;
  rows: T[];
  total: number;
  /** False while the server is still counting (a scan); the window is read again shortly. */
  complete: boolean;
  /** With `around`: the row's position, -1 when the list does not hold it. */
  position?: number;
}

export type ListRead<T, K> = (query: string, at: ListAt<K>, limit: number) => Promise<ListPage<T>>;

export interface ListWindowState<T> {
  /** The query (a filter's text) the rows answer. */
  query: string;
  offset: number;
  rows: T[];
  total: number;
  complete: boolean;
  /** False until the first answer for `query` arrived. */
  loaded: boolean;
}

export interface ListWindowOptions {
  /** The query before the first setQuery (the unfiltered list's). */
  query?: string;
  /** Rows read beyond each edge of the screen. */
  margin?: number;
  /** Largest window asked for. */
  maxRows?: number;
  /** How long to wait before reading a list the server is still counting again. */
  pollMs?: number;
  /**
   * Live traffic reads the window again at most once per this many ms (REFRESH_MS): the server
   * answers on the thread the tap forwards on, so a busy capture's changes are read in batches.
   */
  refreshMs?: number;
}

/**
 * Shortest time between two reads that live traffic asks for: ten a second at most, each showing
 * every row stored until then, well within the second in which a live row must be shown.
 */
export const REFRESH_MS = 100;

/** A window of no list, for a view that has none (subscribing needs a store either way). */
export const noWindow: UseBoundStore<StoreApi<ListWindowState<never>>> = create<ListWindowState<never>>(() => ({ query: '', offset: 0, rows: [], total: 0, complete: true, loaded: false }));

/** The row held at `position`, if any. */
export function heldRow<T>(state: ListWindowState<T>, position: number): T | undefined {
  return state.rows[position - state.offset];
}

export class ListWindow<T, K> {
  readonly store: UseBoundStore<StoreApi<ListWindowState<T>>>;
  private wanted = { first: 0, last: 0, follow: true };
  private inFlight = false;
  private again = false;
  /** Moves with every new query: answers for an older one are dropped. */
  private serial = 0;
  /** Every read is numbered when asked; an answer older than the one shown is dropped. */
  private asked = 0;
  private shown = 0;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRefresh = Number.NEGATIVE_INFINITY;
  private readonly refreshMs: number;
  private readonly margin: number;
  private readonly maxRows: number;
  private readonly pollMs: number;

  constructor(
    private readonly read: ListRead<T, K>,
    options: ListWindowOptions = {},
  ) {
    this.margin = options.margin ?? 100;
    this.maxRows = options.maxRows ?? 1000;
    this.pollMs = options.pollMs ?? 200;
    this.refreshMs = options.refreshMs ?? REFRESH_MS;
    const query = options.query ?? '';
    this.store = create<ListWindowState<T>>(() => ({ query, offset: 0, rows: [], total: 0, complete: true, loaded: false }));
  }

  /** Another list (a new filter): read from where the screen is. */
  setQuery(query: string): void {
    if (query === this.store.getState().query) return;
    this.serial++;
    this.store.setState({ query, rows: [], offset: 0, total: 0, complete: false, loaded: false });
    this.fetch();
  }

  /** Rows the caller holds already become the whole window of `query`, with no read. */
  hold(query: string, rows: T[]): void {
    this.serial++;
    this.store.setState({ query, offset: 0, rows, total: rows.length, complete: true, loaded: true });
  }

  /** The positions on screen, and whether the view follows the end. */
  want(first: number, last: number, follow: boolean): void {
    this.wanted = { first, last, follow };
    if (!this.covers()) this.fetch();
  }

  /** Whether the rows held show what the screen wants. */
  private covers(): boolean {
    const s = this.store.getState();
    const { first, last, follow } = this.wanted;
    const held = s.offset <= first && last < s.offset + s.rows.length;
    const atEnd = s.offset + s.rows.length >= s.total;
    return s.loaded && held && (!follow || atEnd);
  }

  /** The list changed on the server (live traffic): read the window again, at most once per refreshMs. */
  refresh(): void {
    if (this.refreshTimer) return;
    const wait = this.lastRefresh + this.refreshMs - performance.now();
    if (wait <= 0) {
      this.lastRefresh = performance.now();
      this.fetch();
      return;
    }
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.lastRefresh = performance.now();
      this.fetch();
    }, wait);
  }

  /** Finds where the row keyed `key` is and holds the rows around it; its position (-1: absent). */
  async locate(key: K): Promise<number> {
    const serial = this.serial;
    const asked = ++this.asked;
    const page = await this.read(this.store.getState().query, { around: key }, Math.floor(this.maxRows / 2));
    if (serial !== this.serial) return -1;
    // The located rows are shown even over a read asked after them: the screen moves to them next.
    this.shown = Math.max(this.shown, asked);
    this.apply(page);
    const position = page.position ?? -1;
    // Not in this list: the screen stays, so the rows it shows are read again.
    if (position < 0 && !this.covers()) this.fetch();
    return position;
  }

  stop(): void {
    this.serial++;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
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
    const limit = Math.min(this.maxRows, last - first + 1 + 2 * this.margin);
    const at: ListAt<K> = follow ? { end: true } : { offset: Math.max(0, first - this.margin) };
    const asked = ++this.asked;
    this.read(this.store.getState().query, at, limit)
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

  private apply(page: ListPage<T>): void {
    this.store.setState({ offset: page.offset, rows: page.rows, total: page.total, complete: page.complete, loaded: true });
    if (!page.complete && !this.pollTimer) {
      this.pollTimer = setTimeout(() => {
        this.pollTimer = undefined;
        this.fetch();
      }, this.pollMs);
    }
  }
}
