/**
 * Filters the browser cannot answer from summaries (free text searches bodies; `diag:CODE` needs
 * diagnostic codes) are asked of the capture: `GET /api/exchanges?filter=`, the same matcher and
 * the same answer the API gives anyone. The ids it returns are the view.
 *
 * The capture scans in time slices (a page may come back short, even empty, with a cursor), so a
 * round follows cursors on its own until it has ROUND_MATCHES rows, reaches the oldest exchange
 * or spends ROUND_MS; then the search is `partial` and says how far it got, and `more()` runs the
 * next round from there. Rows captured after the search started are searched as they arrive:
 * each head change re-reads the newest pages down to what was already covered.
 *
 * Known limit: a row already searched whose answer arrives later (pending, then a body that
 * matches) is not searched again until the filter changes.
 */
import { create } from 'zustand';
import { exchangeOrderKey, type ExchangesPage } from '@mcpscope/protocol';

/** Matches one round collects before it stops and offers more (the API's default page size). */
export const ROUND_MATCHES = 1000;
/** Longest a round keeps following the capture's cursors before it reports a partial scan. */
export const ROUND_MS = 4000;
/** Coalesces live head changes into one top-up search. */
const TOP_UP_DELAY_MS = 250;

export interface SearchApi {
  searchExchanges(filter: string, limit: number, before?: number, signal?: AbortSignal): Promise<ExchangesPage>;
}

export type SearchStatus = 'idle' | 'searching' | 'partial' | 'done' | 'error';

export interface SearchState {
  /** The filter text being searched; undefined when the browser answers the filter itself. */
  text?: string;
  status: SearchStatus;
  /** Ids of the exchanges that match (a mutable set; `version` moves when it grows). */
  matches: Set<string>;
  version: number;
  /** Where the next round starts (`before`), when older exchanges are still unsearched. */
  cursor?: number;
  /** Capture head when the search started: how much of the capture `cursor` leaves unsearched. */
  head: number;
  error?: string;
}

export const useSearch = create<SearchState>(() => ({ status: 'idle', matches: new Set(), version: 0, head: 0 }));

/** A fresh state; the version keeps moving (never back), so a view keyed on it always rebuilds. */
function reset(text: string | undefined, status: SearchStatus): void {
  const next: SearchState = { status, matches: new Set(), version: useSearch.getState().version + 1, head: 0 };
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
 * Runs the search for `text` until stopped: a first round, then top-ups on `headChanged()`, and
 * another round on `more()`. Only one search lives at a time; starting one stops the last.
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
    void this.round(undefined);
  }

  stop(): void {
    this.controller.abort();
    if (this.topUpTimer) clearTimeout(this.topUpTimer);
  }

  /** Searches the next ROUND_MATCHES older rows. */
  more(): void {
    const { cursor, status } = useSearch.getState();
    if (cursor === undefined || status === 'searching') return;
    useSearch.setState({ status: 'searching' });
    void this.round(cursor);
  }

  /** New rows were captured: search them too (coalesced). */
  headChanged(): void {
    if (this.topUpTimer || this.controller.signal.aborted) return;
    this.topUpTimer = setTimeout(() => {
      this.topUpTimer = undefined;
      void this.topUp();
    }, TOP_UP_DELAY_MS);
  }

  private async round(before: number | undefined): Promise<void> {
    const started = this.now();
    let collected = 0;
    try {
      for (;;) {
        const page = await this.api.searchExchanges(this.text, ROUND_MATCHES - collected, before, this.controller.signal);
        if (before === undefined && this.top === 0) {
          this.top = page.head;
          useSearch.setState({ head: page.head });
        }
        collected += page.exchanges.length;
        this.add(page);
        before = page.nextBefore;
        if (before === undefined || collected >= ROUND_MATCHES || this.now() - started > ROUND_MS) break;
      }
      if (before === undefined) useSearch.setState({ status: 'done', cursor: undefined });
      else useSearch.setState({ status: 'partial', cursor: before });
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
        const page = await this.api.searchExchanges(this.text, ROUND_MATCHES, before, this.controller.signal);
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
