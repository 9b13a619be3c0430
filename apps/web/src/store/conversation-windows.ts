/**
 * The conversations of a capture with more of them than the browser holds (a host that starts a
 * conversation per chat: tens of thousands a day). Up to CONVERSATIONS_WHOLE the live store holds
 * every one (live-store.ts) and the sidebar sorts them itself. Past it the capture's conversations
 * are `windowed`, and stay so: the live store holds the newest CONVERSATIONS_HELD, those arriving
 * live and the chosen one; the sidebar shows one page of the server's list
 * (`GET /api/conversations/window`), read by position in its order (the most recently started
 * first), with the list's length; a conversation a view names but the store does not hold (the
 * filter's `conversation:KEY`, from the URL or a link) is read by key.
 *
 * Invariants: the page's `rows[i]` is the conversation at position `offset + i` of the server's
 * list, `total` its length. Live updates change the page without a read: a held conversation is
 * replaced by a later state of it; one not held whose key is older than the newest known is
 * outside the page and counted already (nothing moves); a new one (its key, `c` + the seq that
 * started it, above every key seen) moves the count, and joins the first page at the top (its last
 * row goes) or, before a later page, moves that page's position by one (it shows the same rows).
 * Only what cannot be placed so (no key known yet, a new conversation that starts inside or after
 * the page) reads the page and the count again, at most once per REFRESH_MS, one read in flight;
 * so does a page that was being read while updates arrived (its answer may predate them).
 * A conversation is read by key at most once while a read of it is out.
 */
import { create } from 'zustand';
import type { ConversationSummary, ConversationsWindowPage } from '@mcpscope/protocol';
import { REFRESH_MS } from './list-window.js';

/**
 * Conversations held whole in the browser; past it they are read by windows. Measured (a
 * conversation's summary is about 690 bytes; bench/README.md, dashboard-lists): 2,000 are 1.4 MB
 * that the server reads in 22 ms and the browser parses and sorts in 11 ms, and the sidebar sorts
 * them again on every live update; 10,000 are 6.9 MB, 119 ms and 47 ms; 30,000 are 21 MB, 560 ms
 * (on the thread the tap forwards on) and 240 ms.
 */
export const CONVERSATIONS_WHOLE = 2000;
/** Conversations a windowed capture's live store holds (the newest), besides the chosen one: the filter bar's suggestions. */
export const CONVERSATIONS_HELD = 500;
/** Conversations on one page of a windowed sidebar. */
export const CONVERSATIONS_PAGE = 100;

export type ConversationWindowRead = (at: { offset: number } | { around: string }, limit: number) => Promise<ConversationsWindowPage>;

export interface ConversationsWindowState {
  /** More conversations than CONVERSATIONS_WHOLE: the sidebar shows pages of the server's list. */
  windowed: boolean;
  /** Position of `rows[0]` in the server's list. */
  offset: number;
  rows: ConversationSummary[];
  /** Conversations in the capture, as the server last counted them (and live updates moved the count). */
  total: number;
  /** False until the first page arrived. */
  loaded: boolean;
  /** Keys read by key that the capture does not hold. */
  absent: ReadonlySet<string>;
}

const initial: ConversationsWindowState = { windowed: false, offset: 0, rows: [], total: 0, loaded: false, absent: new Set() };

export const useConversationsWindow = create<ConversationsWindowState>(() => initial);

/** Back to a capture held whole (a new dashboard, a test). */
export function resetConversationsWindow(): void {
  useConversationsWindow.setState(initial, true);
}

/** Whether `a` comes before `b` in the server's list: started later, or at once with a lower key. */
export function before(a: ConversationSummary, b: ConversationSummary): boolean {
  return a.firstTs > b.firstTs || (a.firstTs === b.firstTs && a.key < b.key);
}

/** The seq a conversation's key carries (`c` + the seq of the frame that started it). */
function keySeq(key: string): number | undefined {
  const seq = /^c(\d+)$/.exec(key)?.[1];
  return seq === undefined ? undefined : Number(seq);
}

export class ConversationWindows {
  private readonly reading = new Set<string>();
  private inFlight = false;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastRead = Number.NEGATIVE_INFINITY;
  private stopped = false;
  /** The highest seq in a conversation key seen on the first page or live (-1: none yet): a key above it is a new conversation. */
  private newest = -1;
  /** Live updates arrived while a page was being read. */
  private missed = false;

  constructor(
    private readonly read: ConversationWindowRead,
    /** Where conversations read by key go (the live store). */
    private readonly hold: (conversations: ConversationSummary[]) => void,
  ) {}

  /** Shows the page starting at `offset` (clamped to the list), read from the server. */
  show(offset: number): void {
    const s = useConversationsWindow.getState();
    const at = Math.max(0, Math.min(offset, Math.max(0, s.total - 1)));
    if (s.loaded && at === s.offset) return;
    useConversationsWindow.setState({ offset: at });
    this.readPage();
  }

  /** Live conversation updates: joined to the page when they can be, else the page is read again (see the header). */
  absorb(updates: readonly ConversationSummary[]): void {
    // A page being read may predate these updates: it is read again once it arrives.
    if (this.inFlight) this.missed = true;
    const s = useConversationsWindow.getState();
    if (!s.loaded) return;
    let { rows, offset, total } = s;
    let stale = false;
    for (const c of updates) {
      const at = rows.findIndex((r) => r.key === c.key);
      if (at >= 0) {
        // An older state never replaces a newer one (a page read before a live update).
        if (rows[at]!.updatedSeq > c.updatedSeq) continue;
        if (rows === s.rows) rows = rows.slice();
        rows[at] = c;
        continue;
      }
      const seq = keySeq(c.key);
      // Not held, and started before the newest known: a conversation outside the page, counted already.
      if (this.newest >= 0 && seq !== undefined && seq <= this.newest) continue;
      if (this.newest < 0 || seq === undefined) {
        stale = true;
        continue;
      }
      this.newest = seq;
      total++;
      const first = rows[0];
      if (offset === 0 && (first === undefined || before(c, first))) rows = [c, ...rows].slice(0, CONVERSATIONS_PAGE);
      else if (first !== undefined && before(c, first)) offset++;
      // A new conversation that starts inside the page or after it (a clock that went back).
      else stale = true;
    }
    if (rows !== s.rows || total !== s.total || offset !== s.offset) useConversationsWindow.setState({ rows, total, offset });
    if (stale) this.refresh();
  }

  /** The conversation keyed `key`, read into the live store (one not held: far from the newest). */
  fetch(key: string): void {
    if (this.reading.has(key)) return;
    this.reading.add(key);
    this.read({ around: key }, 1)
      .then((page) => {
        const found = page.position !== undefined && page.position >= 0 ? page.conversations.find((c) => c.key === key) : undefined;
        if (found) this.hold([found]);
        else useConversationsWindow.setState((s) => ({ absent: new Set(s.absent).add(key) }));
      })
      .catch(() => {})
      .finally(() => this.reading.delete(key));
  }

  /** The page and the count changed on the server: read again, at most once per REFRESH_MS. */
  refresh(): void {
    if (this.timer || this.stopped) return;
    const wait = this.lastRead + REFRESH_MS - performance.now();
    if (wait <= 0) return this.readPage();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.readPage();
    }, wait);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private readPage(): void {
    if (this.stopped) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    this.missed = false;
    this.lastRead = performance.now();
    const offset = useConversationsWindow.getState().offset;
    this.read({ offset }, CONVERSATIONS_PAGE)
      .then((page) => {
        // The user paged while this read was out: the next read answers where they went.
        if (useConversationsWindow.getState().offset !== offset) return void (this.again = true);
        if (page.offset === 0) for (const c of page.conversations) this.newest = Math.max(this.newest, keySeq(c.key) ?? -1);
        useConversationsWindow.setState({ offset: page.offset, rows: page.conversations, total: page.total, loaded: true });
      })
      .catch(() => {
        // The connection banner says when the proxy is gone; the next change asks again.
      })
      .finally(() => {
        this.inFlight = false;
        if (this.again) {
          this.again = false;
          this.readPage();
        } else if (this.missed) this.refresh();
      });
  }
}

let windows: ConversationWindows | undefined;

/** The conversation windows the dashboard's syncs started (undefined before them, and in tests without them). */
export function conversationWindows(): ConversationWindows | undefined {
  return windows;
}

export function setConversationWindows(next: ConversationWindows | undefined): void {
  windows?.stop();
  windows = next;
}
