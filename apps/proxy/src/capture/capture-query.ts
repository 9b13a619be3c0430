/**
 * Filtered reads for the API: a page of exchanges (newest first) and a page of frames (oldest
 * first) that satisfy a filter of the filter language, evaluated on the server with the same
 * matcher the dashboard runs. `filter-sql.ts` narrows with indexes first; the matcher decides.
 *
 * A filter that needs a full scan never runs away: a page reads at most `SCAN_BUDGET` rows and
 * then returns what it found with a cursor (`nextBefore` / `nextAfter`) to continue from.
 */
import { matchesExchange, type ExchangeSummary, type Filter, type FilterContext, type FrameView, type SessionSummary } from '@mcpscope/protocol';
import { FRAME_RAW_LIMIT, toFrameView } from '@mcpscope/protocol';
import { toFrame, type CaptureStore, type FrameRow } from './capture-store.js';
import { filterToSql, usesField } from './filter-sql.js';

/** Rows a single filtered page may examine before it returns with a continuation cursor. */
export const SCAN_BUDGET = 200_000;

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

export class CaptureQuery {
  constructor(private readonly store: CaptureStore) {}

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
    const pushed = filterToSql(filter);
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (pushed) {
      where.push(`(${pushed.sql})`);
      params.push(...pushed.params);
    }
    if (before !== undefined) {
      where.push('sort_key < ?');
      params.push(before);
    }
    const sql = `SELECT summary, sort_key FROM exchanges ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY sort_key DESC`;
    const match = pushed?.exact || filter === null ? undefined : this.matcher(filter);
    const out: string[] = [];
    let lastKey = 0;
    let scanned = 0;
    for (const row of this.store.stmt(sql).iterate(...params) as Iterable<{ summary: string; sort_key: number }>) {
      if (!match || match(JSON.parse(row.summary) as ExchangeSummary)) {
        if (out.length === limit) return { summaries: out, nextBefore: lastKey };
        out.push(row.summary);
        lastKey = row.sort_key;
      }
      if (++scanned >= SCAN_BUDGET) return { summaries: out, nextBefore: row.sort_key };
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
    const pushed = filterToSql(filter);
    const match = pushed?.exact ? undefined : this.matcher(filter);
    const verdicts = new Map<string, boolean>();
    // Frames in seq order (CROSS JOIN pins that order), each with the exchanges it belongs to;
    // frames that belong to no exchange never match a filter.
    const rows = this.store.db
      .prepare(
        `SELECT f.*, exchanges.id AS exchange_id, exchanges.summary AS summary
         FROM frames f CROSS JOIN frame_exchanges fe ON fe.frame_seq = f.seq CROSS JOIN exchanges ON exchanges.id = fe.exchange_id
         WHERE f.seq > ?${pushed ? ` AND (${pushed.sql})` : ''} ORDER BY f.seq`,
      )
      .iterate(after, ...(pushed?.params ?? [])) as Iterable<FrameRow & { exchange_id: string; summary: string }>;
    const out: FrameView[] = [];
    let scanned = 0;
    let lastTaken = -1;
    let previous = after;
    for (const row of rows) {
      // The budget is checked between frames, never between two exchanges of one (batch) frame.
      if (row.seq !== previous && scanned >= SCAN_BUDGET) return { frames: out, nextAfter: previous };
      previous = row.seq;
      scanned++;
      if (row.seq !== lastTaken) {
        let ok = verdicts.get(row.exchange_id);
        if (ok === undefined) {
          ok = !match || match(JSON.parse(row.summary) as ExchangeSummary);
          verdicts.set(row.exchange_id, ok);
        }
        if (ok) {
          if (out.length === limit) return { frames: out, nextAfter: out[limit - 1]!.seq };
          out.push(toFrameView(toFrame(row), FRAME_RAW_LIMIT));
          lastTaken = row.seq;
        }
      }
    }
    return { frames: out };
  }

  /** The exact matcher with the context the filter needs, loaded lazily and cached per page. */
  private matcher(filter: Filter): (ex: ExchangeSummary) => boolean {
    const needsSession = usesField(filter, 'client') || usesField(filter, 'rev');
    const sessions = needsSession ? new Map(this.store.sessions().map((s) => [s.sessionKey, s] as [string, SessionSummary])) : undefined;
    const needsDiag = usesField(filter, 'diag');
    return (ex) => {
      const ctx: FilterContext = { bodyText: () => this.store.framesText(ex.frameSeqs) };
      const session = sessions?.get(ex.sessionKey);
      if (session) ctx.session = session;
      if (needsDiag) ctx.diagnosticCodes = this.store.diagnosticCodes(ex);
      return matchesExchange(filter, ex, ctx);
    };
  }
}
