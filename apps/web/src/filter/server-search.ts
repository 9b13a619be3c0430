/**
 * Filters the browser cannot answer from summaries (free text searches bodies; `diag:CODE` needs
 * diagnostic codes) are asked of the capture: `GET /api/exchanges?filter=`, the same matcher and
 * the same answer the API gives anyone. The ids it returns are the view.
 *
 * The capture scans in time slices (a page may come back short, even empty, with a cursor), so
 * the search follows cursors on its own until it reaches the oldest exchange, and each page's rows
 * show as they arrive: nobody is asked to click for older ones. A capture held whole in the
 * browser has at most LOCAL_LIMIT exchanges (store/window-store.ts), which bounds the matches held.
 * Rows captured after the search started are searched as they arrive: each head change re-reads
 * the newest pages down to what was already covered.
 *
 * Known limit: a row already searched whose answer arrives later (pending, then a body that
 * matches) is not searched again until the filter changes.
 */
import { create } from 'zustand';
import { exchangeOrderKey, type ExchangesPage } from '@mcpscope/protocol';

/** Matches asked for per page (the API's default page size). */
export const PAGE_MATCHES = 1000;
/** Coalesces live head changes into one top-up search. */
const TOP_UP_DELAY_MS = 250;

export interface SearchApi {
  searchExchanges(filter: string, limit: number, before?: number, signal?: AbortSignal): Promise<ExchangesPage>;
}

export type SearchStatus = 'idle' | 'searching' | 'done' | 'error';

export interface SearchState {
  /** The filter text being searched; undefined when the browser answers the filter itself. */
  text?: string;
  status: SearchStatus;
  /** Ids of the exchanges that match (a mutable set; `version` moves when it grows). */
  matches: Set<string>;
  version: number;
  error?: string;
}

export const useSearch = create<SearchState>(() => ({ status: 'idle', matches: new Set(), version: 0 }));

/** A fresh state; the version keeps moving (never back), so a view keyed on it always rebuilds. */
function reset(text: string | undefined, status: SearchStatus): void {
  const next: SearchState = { status, matches: new Set(), version: useSearch.getState().version + 1 };
  if (text !== undefined) next.text = text;
  useSearch.setState(next, true);
}

/** Says a search for `text` is about to start (before the typing pause ends), with no matches yet. */
export function pendingSearch(text: string): void {
  if (useSearch.getState().text !== text) reset(text, 'searching');
}

export interface SearchSink {
  /** Summaries the capture found (the live store takes them, so rows it had not loaded show). */
  found(page: ExchangesPage): void;
}

/**
 * Runs the search for `text` until stopped: the whole capture, then top-ups on `headChanged()`.
 * Only one search lives at a time; starting one stops the last.
 */
export class ServerSearch {
  private controller = new AbortController();
  /** Sort key of the newest exchange the search has covered. */
  private top = 0;
  private topping = false;
  private topUpTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly api: SearchApi,
    private readonly sink: SearchSink,
    readonly text: string,
    private readonly now: () => number = () => performance.now(),
  ) {
    reset(text, 'searching');
    void this.searchAll();
  }

  stop(): void {
    this.controller.abort();
    if (this.topUpTimer) clearTimeout(this.topUpTimer);
  }

  /** New rows were captured: search them too (coalesced). */
  headChanged(): void {
    if (this.topUpTimer || this.controller.signal.aborted) return;
    this.topUpTimer = setTimeout(() => {
      this.topUpTimer = undefined;
      void this.topUp();
    }, TOP_UP_DELAY_MS);
  }

  /** Follows the capture's cursors from the newest exchange to the oldest. */
  private async searchAll(): Promise<void> {
    let before: number | undefined;
    try {
      do {
        const page = await this.api.searchExchanges(this.text, PAGE_MATCHES, before, this.controller.signal);
        if (this.top === 0) this.top = page.head;
        this.add(page);
        before = page.nextBefore;
      } while (before !== undefined);
      if (!this.controller.signal.aborted) useSearch.setState({ status: 'done' });
    } catch (err) {
      if (!this.controller.signal.aborted) useSearch.setState({ status: 'error', error: (err as Error).message });
    }
  }

  /** Reads the newest pages down to the old top, so rows captured since the start are searched. */
  private async topUp(): Promise<void> {
    if (this.topping || this.top === 0) return;
    this.topping = true;
    try {
      const floor = this.top;
      let before: number | undefined;
      let head = floor;
      for (;;) {
        const page = await this.api.searchExchanges(this.text, PAGE_MATCHES, before, this.controller.signal);
        head = Math.max(head, page.head);
        const fresh = page.exchanges.filter((ex) => exchangeOrderKey(ex.id) > floor);
        this.add({ ...page, exchanges: fresh });
        before = page.nextBefore;
        if (before === undefined || before <= floor || fresh.length < page.exchanges.length) break;
      }
      this.top = head;
    } catch {
      // The next head change tries again; an aborted search has nothing to report.
    } finally {
      this.topping = false;
    }
  }

  private add(page: ExchangesPage): void {
    if (this.controller.signal.aborted) return;
    if (page.exchanges.length === 0) return;
    this.sink.found(page);
    const { matches, version } = useSearch.getState();
    for (const ex of page.exchanges) matches.add(ex.id);
    useSearch.setState({ version: version + 1 });
  }
}

/** Forgets the search (the filter no longer needs the capture). */
export function clearSearch(): void {
  if (useSearch.getState().text !== undefined) reset(undefined, 'idle');
}
