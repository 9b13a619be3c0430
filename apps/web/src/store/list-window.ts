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
 *
 * Live rows (`absorb`) join a window that holds the list's end without a read, for a list every
 * new row joins at its end (its order is the order of arrival): a row ordered after the newest
 * held is new (appended, the length moves by one), a held row is replaced by a later state, any
 * other row is already counted outside the window. A read's answer may predate rows absorbed
 * while it was out: they are applied again over it, so the window never goes back.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { lowerBoundBy } from './exchange-index.js';

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

/** How live rows join the list without a read (see the header). */
export interface LiveRows<T> {
  /** The row's place in the list (rows are sorted by it, rising; a new row's is the highest yet). */
  order(row: T): number;
  /** Whether `incoming` is a state of `held`'s row at least as recent. */
  fresher(incoming: T, held: T): boolean;
}

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
  /** Live rows join without a read (`absorb`); without, `absorb` declines. */
  live?: LiveRows<unknown>;
}

/**
 * Shortest time between two reads that live traffic asks for: ten a second at most, each showing
 * every row stored until then, well within the second in which a live row must be shown.
 */
export const REFRESH_MS = 100;

/** A window of no list, for a view that has none (subscribing needs a store either way). */
export const noWindow: UseBoundStore<StoreApi<ListWindowState<never>>> = create<ListWindowState<never>>(() => ({ query: '', offset: 0, rows: [], total: 0, complete: true, loaded: false }));

/** Where the row ordered `order` is in `rows` (sorted by `orderOf`), -1 when absent. */
function positionOf<T>(rows: readonly T[], order: number, orderOf: (row: T) => number): number {
  const at = lowerBoundBy(rows, order, orderOf);
  return at < rows.length && orderOf(rows[at]!) === order ? at : -1;
}

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
  private readonly live: LiveRows<T> | undefined;
  /** Reads under way (the window's and `locate`'s): rows absorbed meanwhile are kept for their answers. */
  private reading = 0;
  /** Rows absorbed while a read was out, with the number of the newest read asked before them. */
  private absorbed: { after: number; rows: readonly T[] }[] = [];

  constructor(
    private readonly read: ListRead<T, K>,
    options: ListWindowOptions = {},
  ) {
    this.margin = options.margin ?? 100;
    this.maxRows = options.maxRows ?? 1000;
    this.pollMs = options.pollMs ?? 200;
    this.refreshMs = options.refreshMs ?? REFRESH_MS;
    this.live = options.live as LiveRows<T> | undefined;
    const query = options.query ?? '';
    this.store = create<ListWindowState<T>>(() => ({ query, offset: 0, rows: [], total: 0, complete: true, loaded: false }));
  }

  /** Another list (a new filter): read from where the screen is. */
  setQuery(query: string): void {
    if (query === this.store.getState().query) return;
    this.serial++;
    this.absorbed = [];
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
    this.reading++;
    const page = await this.read(this.store.getState().query, { around: key }, Math.floor(this.maxRows / 2)).finally(() => this.reading--);
    if (serial !== this.serial) return -1;
    // The located rows are shown even over a read asked after them: the screen moves to them next.
    this.shown = Math.max(this.shown, asked);
    this.apply(page, asked);
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
    this.reading++;
    this.read(this.store.getState().query, at, limit)
      .then((page) => {
        if (serial !== this.serial || asked < this.shown) return;
        this.shown = asked;
        this.apply(page, asked);
      })
      .catch(() => {
        // The connection banner says when the proxy is gone; the next change asks again.
      })
      .finally(() => {
        this.reading--;
        if (this.reading === 0) this.absorbed = [];
        this.inFlight = false;
        // The screen moved while this read was out, to rows held then: the answer replaced them.
        if (this.again || (this.wanted !== wanted && !this.covers())) {
          this.again = false;
          this.fetch();
        }
      });
  }

  /**
   * Live rows changed on the server: applied to the window when it holds the list's end (see the
   * header); false when they cannot be, and the window must be read again to show them.
   */
  absorb(rows: readonly T[]): boolean {
    if (!this.live) return false;
    const next = this.joined(this.store.getState(), rows);
    if (!next) return false;
    if (this.reading > 0) this.absorbed.push({ after: this.asked, rows });
    this.store.setState(next);
    return true;
  }

  /** The window with `rows` joined, or undefined when it does not hold the list's end (or would grow past twice its size). */
  private joined(s: ListWindowState<T>, rows: readonly T[]): Pick<ListWindowState<T>, 'offset' | 'rows' | 'total'> | undefined {
    const live = this.live!;
    const end = s.offset + s.rows.length;
    if (!s.loaded || !s.complete || end !== s.total || (s.rows.length === 0 && s.total > 0) || s.rows.length > 2 * this.maxRows) return undefined;
    const newest = s.rows.length === 0 ? Number.NEGATIVE_INFINITY : live.order(s.rows[s.rows.length - 1]!);
    const held = s.rows.slice();
    const added: T[] = [];
    for (const row of rows) {
      const order = live.order(row);
      if (order > newest) {
        added.push(row);
        continue;
      }
      const at = positionOf(held, order, live.order);
      if (at >= 0 && live.fresher(row, held[at]!)) held[at] = row;
    }
    added.sort((a, b) => live.order(a) - live.order(b));
    // A row may come twice in one call (two states): the later copy stands.
    for (const row of added) {
      const last = held[held.length - 1];
      if (last !== undefined && live.order(last) === live.order(row)) held[held.length - 1] = row;
      else held.push(row);
    }
    const total = s.total + (held.length - s.rows.length);
    // The rows before the screen's margin go once the window is past its size.
    const cut = Math.max(0, Math.min(held.length - this.maxRows, this.wanted.first - this.margin - s.offset));
    return { offset: s.offset + cut, rows: cut > 0 ? held.slice(cut) : held, total };
  }

  private apply(page: ListPage<T>, asked: number): void {
    this.store.setState({ offset: page.offset, rows: page.rows, total: page.total, complete: page.complete, loaded: true });
    // Rows absorbed since this read was asked may be newer than its answer.
    this.absorbed = this.absorbed.filter((a) => a.after >= asked);
    for (const { rows } of this.absorbed) {
      const next = this.joined(this.store.getState(), rows);
      if (next) this.store.setState(next);
      else this.refresh();
    }
    if (!page.complete && !this.pollTimer) {
      this.pollTimer = setTimeout(() => {
        this.pollTimer = undefined;
        this.fetch();
      }, this.pollMs);
    }
  }
}
