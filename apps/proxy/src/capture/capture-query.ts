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
import { sortKey, toFrame, type CaptureStore, type FrameRow } from './capture-store.js';
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
    const sql = `SELECT summary FROM exchanges ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY sort_key DESC`;
    const match = pushed?.exact || filter === null ? undefined : this.matcher(filter);
    const out: ExchangeSummary[] = [];
    let scanned = 0;
    for (const row of this.store.db.prepare(sql).iterate(...params) as Iterable<{ summary: string }>) {
      const ex = JSON.parse(row.summary) as ExchangeSummary;
      if (!match || match(ex)) out.push(ex);
      if (out.length > limit) break;
      if (++scanned >= SCAN_BUDGET) {
        return { exchanges: out, nextBefore: sortKey(ex.id) };
      }
    }
    if (out.length > limit) {
      out.length = limit;
      return { exchanges: out, nextBefore: sortKey(out[limit - 1]!.id) };
    }
    return { exchanges: out };
  }

  frames(filter: Filter | null, after: number, limit: number): FramePage {
    if (filter === null) {
      const frames = this.store.framesAfter(after, limit + 1);
      if (frames.length <= limit) return { frames };
      frames.length = limit;
      return { frames, nextAfter: frames[limit - 1]!.seq };
    }
    const match = this.matcher(filter);
    const verdicts = new Map<string, boolean>();
    const decide = (id: string): boolean => {
      let v = verdicts.get(id);
      if (v === undefined) {
        const ex = this.store.exchange(id);
        v = ex !== undefined && match(ex);
        verdicts.set(id, v);
      }
      return v;
    };
    // One row per (frame, exchange) link; frames that belong to no exchange come once with null.
    const rows = this.store.db
      .prepare(
        `SELECT f.*, fe.exchange_id AS exchange_id FROM frames f LEFT JOIN frame_exchanges fe ON fe.frame_seq = f.seq
         WHERE f.seq > ? ORDER BY f.seq`,
      )
      .iterate(after) as Iterable<FrameRow & { exchange_id: string | null }>;
    const out: FrameView[] = [];
    let scanned = 0;
    let lastTaken = -1;
    for (const row of rows) {
      if (row.seq !== lastTaken && row.exchange_id !== null && decide(row.exchange_id)) {
        if (out.length === limit) return { frames: out, nextAfter: out[limit - 1]!.seq };
        out.push(toFrameView(toFrame(row), FRAME_RAW_LIMIT));
        lastTaken = row.seq;
      }
      if (++scanned >= SCAN_BUDGET) return { frames: out, nextAfter: row.seq };
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
