/**
 * Filtered reads for the API: a page of exchanges (newest first) and a page of frames (oldest
 * first) that satisfy a filter of the filter language, evaluated on the server with the same
 * matcher the dashboard runs. `filter-sql.ts` narrows with indexes first; the matcher decides.
 *
 * A filter that needs a long scan never runs away: after `SCAN_TIME_MS` a page returns what it
 * found with a cursor (`nextBefore` / `nextAfter`) to continue from; such a page may be short,
 * even empty, and still have a cursor. A page without a cursor is the last one.
 */
import { matchesExchange, type ExchangeSummary, type Filter, type FilterContext, type FrameView, type SessionSummary } from '@mcpscope/protocol';
import { FRAME_RAW_LIMIT, toFrameView } from '@mcpscope/protocol';
import { sortKey, type CaptureReader, type FrameRow } from './capture-reader.js';
import { filterToSql, usesField } from './filter-sql.js';

/**
 * Milliseconds a filtered page may scan for. SQLite reads are synchronous on the proxy's event
 * loop, which the tap shares: a free-text search over a million bodies must not stall live
 * traffic, so a long scan returns what it found with a cursor, and the dashboard asks again.
 * Scans go window by window over seq ranges (growing from FIRST_WINDOW), and the clock is read
 * between windows and every 256 rows the matcher looks at, so even SQL-only work is cut short.
 */
export const SCAN_TIME_MS = 100;
const FIRST_WINDOW = 4096;
const MAX_WINDOW = 1 << 20;

export interface ExchangePage {
  exchanges: ExchangeSummary[];
  /** Sort key to pass as `before` for the next (older) page; absent when nothing older matches. */
  nextBefore?: number;
}

export interface FramePage {
  frames: FrameView[];
  /** Seq to pass as `after` for the next page; absent when the scan reached the head. */
  nextAfter?: number;
}

export interface ScanOptions {
  /** Seq span of the first window (doubling after each). */
  firstWindow?: number;
  scanTimeMs?: number;
}

export class CaptureQuery {
  private readonly firstWindow: number;
  private readonly scanTimeMs: number;

  constructor(
    private readonly store: CaptureReader,
    options: ScanOptions = {},
  ) {
    this.firstWindow = options.firstWindow ?? FIRST_WINDOW;
    this.scanTimeMs = options.scanTimeMs ?? SCAN_TIME_MS;
  }

  exchanges(filter: Filter | null, limit: number, before?: number): ExchangePage {
    const page = this.exchangesJson(filter, limit, before);
    const exchanges = page.summaries.map((text) => JSON.parse(text) as ExchangeSummary);
    return page.nextBefore === undefined ? { exchanges } : { exchanges, nextBefore: page.nextBefore };
  }

  /**
   * The same page with each summary as its stored JSON text: the API passes it through without
   * parsing and re-serializing (rows are only parsed when the matcher must look at them).
   */
  exchangesJson(filter: Filter | null, limit: number, before?: number): { summaries: string[]; nextBefore?: number } {
    const pushed = filterToSql(filter, this.store.frameColumns);
    const match = pushed?.exact || filter === null ? undefined : this.matcher(filter);
    const statement = this.store.stmt(
      `SELECT summary, sort_key FROM exchanges WHERE sort_key < ? AND sort_key >= ?${pushed ? ` AND (${pushed.sql})` : ''} ORDER BY sort_key DESC`,
    );
    const out: string[] = [];
    const started = performance.now();
    let seen = 0;
    let hi = before ?? this.store.head() + 1;
    for (let window = this.firstWindow; hi > 0; window = Math.min(window * 2, MAX_WINDOW)) {
      // Unfiltered and SQL-decided pages read only what they return: one unbounded window.
      const lo = match || pushed ? Math.max(0, hi - window) : 0;
      for (const row of statement.iterate(hi, lo, ...(pushed?.params ?? [])) as Iterable<{ summary: string; sort_key: number }>) {
        const summary = this.store.summaryText(row.summary);
        if (!match || match(JSON.parse(summary) as ExchangeSummary)) {
          if (out.length === limit) return { summaries: out, nextBefore: lastSortKey(out) };
          out.push(summary);
        }
        if (match && (++seen & 255) === 0 && performance.now() - started > this.scanTimeMs) return { summaries: out, nextBefore: row.sort_key };
      }
      hi = lo;
      if (hi > 0 && performance.now() - started > this.scanTimeMs) return { summaries: out, nextBefore: hi };
    }
    return { summaries: out };
  }

  frames(filter: Filter | null, after: number, limit: number): FramePage {
    if (filter === null) {
      const frames = this.store.framesAfter(after, limit + 1);
      if (frames.length <= limit) return { frames };
      frames.length = limit;
      return { frames, nextAfter: frames[limit - 1]!.seq };
    }
    const pushed = filterToSql(filter, this.store.frameColumns);
    const match = pushed?.exact ? undefined : this.matcher(filter);
    const verdicts = new Map<string, boolean>();
    // Frames in seq order (CROSS JOIN pins that order), each with the exchanges it belongs to;
    // frames that belong to no exchange never match a filter.
    const statement = this.store.stmt(
      `SELECT f.*, exchanges.id AS exchange_id, exchanges.summary AS summary
       FROM frames f CROSS JOIN frame_exchanges fe ON fe.frame_seq = f.seq CROSS JOIN exchanges ON exchanges.id = fe.exchange_id
       WHERE f.seq > ? AND f.seq <= ?${pushed ? ` AND (${pushed.sql})` : ''} ORDER BY f.seq`,
    );
    const head = this.store.head();
    const out: FrameView[] = [];
    const started = performance.now();
    let seen = 0;
    let lastTaken = -1;
    let lo = after;
    for (let window = this.firstWindow; lo < head; window = Math.min(window * 2, MAX_WINDOW)) {
      const hi = Math.min(head, lo + window);
      let previous = lo;
      for (const row of statement.iterate(lo, hi, ...(pushed?.params ?? [])) as Iterable<FrameRow & { exchange_id: string; summary: string }>) {
        // The clock is read between frames, never between two exchanges of one (batch) frame.
        if (match && row.seq !== previous && (++seen & 255) === 0 && performance.now() - started > this.scanTimeMs) {
          return { frames: out, nextAfter: previous };
        }
        previous = row.seq;
        if (row.seq === lastTaken) continue;
        let ok = verdicts.get(row.exchange_id);
        if (ok === undefined) {
          ok = !match || match(this.store.summary(row.summary));
          verdicts.set(row.exchange_id, ok);
        }
        if (ok) {
          if (out.length === limit) return { frames: out, nextAfter: out[limit - 1]!.seq };
          out.push(toFrameView(this.store.toFrame(row), FRAME_RAW_LIMIT));
          lastTaken = row.seq;
        }
      }
      lo = hi;
      if (lo < head && performance.now() - started > this.scanTimeMs) return { frames: out, nextAfter: lo };
    }
    return { frames: out };
  }

  private matcher(filter: Filter): (ex: ExchangeSummary) => boolean {
    return exchangeMatcher(this.store, filter);
  }
}

/** The exact matcher with the context the filter needs, loaded lazily and cached per call. */
export function exchangeMatcher(store: CaptureReader, filter: Filter): (ex: ExchangeSummary) => boolean {
  const needsSession = usesField(filter, 'client') || usesField(filter, 'rev') || usesField(filter, 'conversation');
  const sessions = needsSession ? new Map(store.sessions().map((s) => [s.sessionKey, s] as [string, SessionSummary])) : undefined;
  const needsDiag = usesField(filter, 'diag');
  return (ex) => {
    const ctx: FilterContext = { bodyText: () => store.framesText(ex.frameSeqs) };
    const session = sessions?.get(ex.sessionKey);
    if (session) ctx.session = session;
    if (needsDiag) ctx.diagnosticCodes = store.diagnosticCodes(ex);
    return matchesExchange(filter, ex, ctx);
  };
}

/** The sort key of the last summary of a page (parsed only for its id). */
function lastSortKey(summaries: readonly string[]): number {
  return sortKey((JSON.parse(summaries[summaries.length - 1]!) as ExchangeSummary).id);
}
