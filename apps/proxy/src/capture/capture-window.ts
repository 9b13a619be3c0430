/**
 * The dashboard's list, served by position: the exchanges a filter keeps, oldest first (capture
 * order, the timeline's), read as a window `[offset, offset + limit)` with the list's length. The
 * browser holds only the window it shows, so a capture of millions costs it what a hundred do.
 *
 * Two ways to know the list, chosen per filter:
 * - counted: no filter, or one SQL decides exactly from columns and indexes (filter-sql.ts). The
 *   length is a COUNT over the indexes that moves by the rows stored since (list-count.ts), a
 *   window is `ORDER BY sort_key LIMIT/OFFSET` from the nearer end of the list (DESC for the
 *   second half); nothing is held between requests but the count.
 * - scanned: free text (bodies), fields read from each row's summary, and whatever needs the
 *   matcher (SQL decides each row where it can, the matcher the rest; free text reads the bodies
 *   of a range of rows in one pass over their frames, scan-sql.ts). The keys of matching rows are
 *   collected oldest first into an array, in slices of SLICE_MS between which the event loop
 *   (which the tap shares) runs; a request answers from what is collected so far with
 *   `complete: false`, and the collection goes on by itself until it reaches the head, as long as
 *   some dashboard keeps asking for it (ABANDON_MS). Found keys are a prefix of the final list, so
 *   a window once answered never moves while counting goes on.
 *   New rows extend the scan from where it stopped; rows whose summary changed since (a pending
 *   call answered) are matched again through the `updated_seq` index.
 *
 * Invariant: the window at any position equals that slice of "every exchange, in capture order,
 * kept by the matcher" (test/capture-window.test.ts).
 */
import type { ExchangeSummary, Filter } from '@mcpscope/protocol';
import type { CaptureReader } from './capture-reader.js';
import { exchangeMatcher } from './capture-query.js';
import { filterToSql, onlyFields, usesField, type SqlFilter } from './filter-sql.js';
import { centred, lowerBound } from './list-position.js';
import { ListCounts } from './list-count.js';
import { bindRange, rangedFilterSql, type RangedParam } from './scan-sql.js';

/** Milliseconds a scan runs before it yields the event loop. */
export const SLICE_MS = 25;
/** A finished scan nobody asked about for this long is dropped. */
const IDLE_MS = 60_000;
/**
 * A scan still counting that nobody asked about for this long is abandoned: it takes no more
 * slices and its keys are let go. A dashboard asks again about a list still counting 200 ms after
 * each answer (apps/web/src/store/window-store.ts, list-window.ts), and a browser runs a hidden
 * tab's timers at most once a second, so a list some dashboard shows is asked about well within
 * this; a filter cleared or replaced is not asked about again. Abandoning by time rather than by
 * "the next query" keeps two dashboards with different filters from stopping each other's scans.
 */
export const ABANDON_MS = 2_000;
/** Scans kept at once (one per filter the dashboards show). */
const MAX_SCANS = 4;
/** Seq span of one scan step's range query. */
const STEP_SPAN = 8192;
/**
 * Fields whose SQL reads each row's bodies or stored summary (free text, `id:`, `dir:`) or its
 * diagnostics (`diag:`): a COUNT of them would visit every row again at each new head, so their
 * lists are scanned (sliced, extended from where they stopped) even when the SQL is exact.
 */
const PER_ROW_FIELDS = ['text', 'id', 'dir', 'diag'];
/**
 * Fields an exchange's row holds from the moment it is stored and never changes: a list kept by
 * these alone (or by no filter) gains rows only at its end (sort keys grow with frame seqs), so at
 * a new head its count moves by the rows stored since, counted from an index range, never again
 * over the whole capture. Any other field (a status, a latency, a session's client or revision, a
 * conversation) may change on rows already counted.
 */
const SETTLED_FIELDS = ['method', 'tool', 'session', 'kind'];

export interface WindowQuery {
  filter: Filter | null;
  /** The filter as typed: what its scan is kept under. */
  text: string;
  /** Only exchanges at or after this sort key (the dashboard's "Clear"). */
  since?: number;
}

/** Where the window starts: a position, the end of the list, or around one exchange. */
export type WindowAt = { offset: number } | { end: true } | { around: string };

export interface WindowAnswer {
  offset: number;
  /** Length of the list (of what is found so far while `complete` is false). */
  total: number;
  complete: boolean;
  /** The window's summaries as stored (JSON text), in list order. */
  summaries: string[];
  /** With `around`: its position in the list, -1 when the filter does not keep it (or not yet). */
  position?: number;
}

export interface WindowOptions {
  /** Slice length of a scan (Infinity: a scan finishes within the request that starts it). */
  sliceMs?: number;
  /** How the next slice is scheduled (setImmediate; tests may step by hand). */
  schedule?: (run: () => void) => void;
  /** Seq span of one range query of a scan (STEP_SPAN). */
  stepSpan?: number;
  /** Rows from which a changing list is no longer counted whole at each head (list-count.ts). */
  wholeCountRows?: number;
  /** Milliseconds clock for idle times (Date.now; tests may move it by hand). */
  now?: () => number;
}

export class ExchangeWindows {
  private readonly scans = new Map<string, MatchScan>();
  private readonly counts: ListCounts;
  private readonly sliceMs: number;
  private readonly schedule: (run: () => void) => void;
  private readonly stepSpan: number;
  private readonly now: () => number;

  constructor(
    private readonly store: CaptureReader,
    options: WindowOptions = {},
  ) {
    this.sliceMs = options.sliceMs ?? SLICE_MS;
    this.schedule = options.schedule ?? ((run) => void setImmediate(run));
    this.stepSpan = options.stepSpan ?? STEP_SPAN;
    this.now = options.now ?? Date.now;
    this.counts = new ListCounts(this.now, options.wholeCountRows);
  }

  window(query: WindowQuery, at: WindowAt, limit: number): WindowAnswer {
    const pushed = filterToSql(query.filter, this.store.frameColumns);
    const since = query.since ?? Number.NEGATIVE_INFINITY;
    const counted = query.filter === null || (pushed?.exact === true && !PER_ROW_FIELDS.some((field) => usesField(query.filter, field)));
    return counted ? this.counted(query.filter, pushed, since, at, limit) : this.scanned(query, pushed, since, at, limit);
  }

  /**
   * The list decided by SQL alone: COUNT for its length (remembered per head), and the window read
   * from whichever end of the list is nearer, so OFFSET steps over at most half the kept rows (none
   * at the end, where the dashboard opens). Both directions read the same rows: positions are
   * counted against the same `total`, and sort keys order the list strictly.
   */
  private counted(filter: Filter | null, pushed: SqlFilter | undefined, since: number, at: WindowAt, limit: number): WindowAnswer {
    const where = `exchanges.sort_key >= ?${pushed ? ` AND (${pushed.sql})` : ''}`;
    const params = [since, ...(pushed?.params ?? [])];
    const total = this.count(pushed, since, onlyFields(filter, SETTLED_FIELDS));
    let position: number | undefined;
    let offset: number;
    if ('around' in at) {
      position = this.positionOf(at.around, where, params, total);
      offset = centred(position, total, limit);
    } else offset = 'end' in at ? Math.max(0, total - limit) : Math.min(at.offset, total);
    const n = Math.min(limit, total - offset);
    const all = pushed ? this.count(undefined, since, true) : total;
    const keys = n > 0 ? this.keysAt(where, params, offset, n, total, all) : [];
    const byKey = this.store.stmt('SELECT summary FROM exchanges WHERE sort_key = ?');
    const summaries = keys.flatMap((k) => {
      const row = byKey.get(k) as { summary: string } | undefined;
      return row ? [this.store.summaryText(row.summary)] : [];
    });
    const answer: WindowAnswer = { offset, total, complete: true, summaries };
    if (position !== undefined) answer.position = position;
    return answer;
  }

  /**
   * Sort keys at positions `[offset, offset + n)` of a counted list of `total` rows (of `all` rows
   * since the list's start), in list order. Only keys are sorted or stepped over; summaries are
   * read for the window alone. Two plans, the cheaper by an estimate of rows visited:
   * - the filter's indexes collect every kept row, then the keys are sorted (≈ `total` rows);
   * - the capture-order index is walked from the nearer end, each row tested, until the window's
   *   last row (≈ `(skipped + n) · all / total` rows: few at the end of a dense list).
   */
  private keysAt(where: string, params: readonly (string | number)[], offset: number, n: number, total: number, all: number): number[] {
    const after = total - offset - n;
    const backwards = after < offset;
    const skip = backwards ? after : offset;
    const walk = all > total && (skip + n) * all <= total * total;
    const sql = `SELECT sort_key FROM exchanges${walk ? ' INDEXED BY exchanges_by_order' : ''} WHERE ${where} ORDER BY exchanges.sort_key${backwards ? ' DESC' : ''} LIMIT ? OFFSET ?`;
    const keys = (this.store.stmt(sql).all(...params, n, skip) as { sort_key: number }[]).map((r) => r.sort_key);
    return backwards ? keys.reverse() : keys;
  }

  /**
   * Position of exchange `id` in a counted list (-1 when the list does not keep it), counted from
   * the end its sort key is nearer to, as a guess from the capture's first and last keys.
   */
  private positionOf(id: string, where: string, params: readonly (string | number)[], total: number): number {
    const row = this.store.stmt(`SELECT sort_key FROM exchanges WHERE id = ? AND ${where}`).get(id, ...params) as { sort_key: number } | undefined;
    if (!row) return -1;
    // One MIN or MAX per SELECT: SQLite answers a lone one from an end of the index.
    const span = this.store.stmt('SELECT (SELECT MIN(sort_key) FROM exchanges) AS lo, (SELECT MAX(sort_key) FROM exchanges) AS hi').get() as { lo: number; hi: number };
    const countWhere = (cmp: '<' | '>') => (this.store.stmt(`SELECT count(*) AS n FROM exchanges WHERE ${where} AND exchanges.sort_key ${cmp} ?`).get(...params, row.sort_key) as { n: number }).n;
    return row.sort_key - span.lo <= span.hi - row.sort_key ? countWhere('<') : total - 1 - countWhere('>');
  }

  /** Length of a counted list (list-count.ts): the rows from `since` that `pushed` keeps. */
  private count(pushed: SqlFilter | undefined, since: number, settled: boolean): number {
    const kept = pushed ? ` AND (${pushed.sql})` : '';
    const params = pushed?.params ?? [];
    // One statement, one snapshot: the count and the capture's highest sort key. One lower bound
    // on sort_key per count, so SQLite starts its index range there.
    const counted = (bound: string, from: number) => {
      const row = this.store.stmt(`SELECT (SELECT count(*) FROM exchanges WHERE exchanges.sort_key ${bound} ?${kept}) AS n, (SELECT MAX(sort_key) FROM exchanges) AS last`).get(from, ...params) as { n: number; last: number | null };
      return { n: row.n, last: row.last ?? Number.NEGATIVE_INFINITY };
    };
    return this.counts.count(
      {
        key: `${since}\n${kept}${JSON.stringify(params)}`,
        settled,
        whole: () => counted('>=', since),
        after: (last) => (since > last ? counted('>=', since) : counted('>', last)),
      },
      this.store.head(),
      this.store.oldest(),
    );
  }

  private scanned(query: WindowQuery, pushed: SqlFilter | undefined, since: number, at: WindowAt, limit: number): WindowAnswer {
    const key = `${since}\n${query.text}`;
    let scan = this.scans.get(key);
    const oldest = this.store.oldest();
    if (scan && scan.oldest !== oldest) scan = undefined; // retention removed rows it holds
    scan ??= new MatchScan(this.store, query.filter!, pushed, since, oldest, this.stepSpan);
    scan.lastAsked = this.now();
    // Most recently asked last: when too many are held, the one asked longest ago goes first.
    this.scans.delete(key);
    this.scans.set(key, scan);
    for (const [k, s] of this.scans) if (this.scans.size > MAX_SCANS || this.unwanted(s)) this.scans.delete(k);
    scan.catchUp();
    scan.step(this.sliceMs);
    if (!scan.done) this.continueLater(key, scan);
    const keys = scan.keys;
    let position: number | undefined;
    let offset: number;
    if ('around' in at) {
      const row = this.store.stmt('SELECT sort_key FROM exchanges WHERE id = ?').get(at.around) as { sort_key: number } | undefined;
      const found = row ? lowerBound(keys, row.sort_key) : -1;
      position = row && keys[found] === row.sort_key ? found : -1;
      offset = centred(position, keys.length, limit);
    } else offset = 'end' in at ? Math.max(0, keys.length - limit) : Math.min(at.offset, keys.length);
    const byKey = this.store.stmt('SELECT summary FROM exchanges WHERE sort_key = ?');
    const summaries: string[] = [];
    for (const k of keys.slice(offset, offset + limit)) {
      const row = byKey.get(k) as { summary: string } | undefined;
      if (row) summaries.push(this.store.summaryText(row.summary));
    }
    const answer: WindowAnswer = { offset, total: keys.length, complete: scan.done, summaries };
    if (position !== undefined) answer.position = position;
    return answer;
  }

  /** A scan still counting that was abandoned (ABANDON_MS), or a finished one left idle (IDLE_MS). */
  private unwanted(scan: MatchScan): boolean {
    return this.now() - scan.lastAsked > (scan.done ? IDLE_MS : ABANDON_MS);
  }

  /** Runs the scan's next slices on later turns of the event loop, while it is still wanted. */
  private continueLater(key: string, scan: MatchScan): void {
    if (scan.scheduled) return;
    scan.scheduled = true;
    this.schedule(() => {
      scan.scheduled = false;
      if (this.scans.get(key) !== scan) return;
      if (this.unwanted(scan)) {
        this.scans.delete(key);
        return;
      }
      scan.step(this.sliceMs);
      if (!scan.done) this.continueLater(key, scan);
    });
  }
}

/** The sort keys a filter keeps, collected oldest first, resumable. */
class MatchScan {
  readonly keys: number[] = [];
  /** Every row with a sort key below this has been looked at. */
  private next: number;
  /** Frames up to this seq were stored when the scan last caught up with changed rows. */
  private seenHead: number;
  done = false;
  scheduled = false;
  /** When a request last asked for this list (ExchangeWindows' clock). */
  lastAsked = 0;
  private readonly match: ((ex: ExchangeSummary) => boolean) | undefined;
  /** The filter's SQL per row (for rows matched again), and per range (for the scan's steps). */
  private readonly where: string;
  private readonly params: (string | number)[];
  private readonly rangedWhere: string;
  private readonly rangedParams: RangedParam[];

  constructor(
    private readonly store: CaptureReader,
    filter: Filter,
    pushed: SqlFilter | undefined,
    since: number,
    readonly oldest: number,
    private readonly stepSpan: number,
  ) {
    this.match = pushed?.exact ? undefined : exchangeMatcher(store, filter);
    this.where = pushed ? ` AND (${pushed.sql})` : '';
    this.params = pushed?.params ?? [];
    const ranged = rangedFilterSql(filter, store.frameColumns);
    this.rangedWhere = ranged ? ` AND (${ranged.sql})` : '';
    this.rangedParams = ranged?.params ?? [];
    this.next = Number.isFinite(since) ? since : Number.NEGATIVE_INFINITY;
    this.seenHead = store.head();
  }

  /** Rows captured since are still to scan; rows already scanned whose summary changed are matched again. */
  catchUp(): void {
    const head = this.store.head();
    if (head === this.seenHead) return;
    const changed = this.store.stmt('SELECT sort_key FROM exchanges WHERE updated_seq > ? AND sort_key < ?').all(this.seenHead, this.next) as { sort_key: number }[];
    if (changed.length > 0) {
      for (const { sort_key } of changed) this.remove(sort_key);
      const matching = this.store
        .stmt(`SELECT sort_key, summary FROM exchanges WHERE updated_seq > ? AND sort_key < ?${this.where}`)
        .all(this.seenHead, this.next, ...this.params) as { sort_key: number; summary: string }[];
      for (const row of matching) if (this.keeps(row.summary)) this.insert(row.sort_key);
    }
    this.seenHead = head;
    this.done = false;
  }

  /** Looks at rows oldest first for up to `ms` milliseconds. */
  step(ms: number): void {
    if (this.done) return;
    const started = performance.now();
    const statement = this.store.stmt(`SELECT sort_key, summary FROM exchanges WHERE sort_key >= ? AND sort_key < ?${this.rangedWhere} ORDER BY sort_key`);
    const end = this.store.head() + 1;
    if (this.next === Number.NEGATIVE_INFINITY) this.next = this.firstKey() ?? end;
    let seen = 0;
    while (this.next < end) {
      const hi = Math.min(end, this.next + this.stepSpan);
      for (const row of statement.iterate(this.next, hi, ...bindRange(this.rangedParams, this.next, hi)) as Iterable<{ sort_key: number; summary: string }>) {
        if (this.keeps(row.summary)) this.keys.push(row.sort_key);
        // The clock is read every 256 rows the matcher parses, so one range cannot run away.
        if (this.match && (++seen & 255) === 0 && performance.now() - started > ms) {
          this.next = nextUp(row.sort_key);
          return;
        }
      }
      this.next = hi;
      if (performance.now() - started > ms) break;
    }
    if (this.next >= end) {
      this.next = end;
      this.done = true;
    }
  }

  private keeps(summary: string): boolean {
    return !this.match || this.match(this.store.summary(summary));
  }

  private firstKey(): number | undefined {
    return (this.store.stmt('SELECT MIN(sort_key) AS k FROM exchanges').get() as { k: number | null }).k ?? undefined;
  }

  private insert(key: number): void {
    const at = lowerBound(this.keys, key);
    if (this.keys[at] !== key) this.keys.splice(at, 0, key);
  }

  private remove(key: number): void {
    const at = lowerBound(this.keys, key);
    if (this.keys[at] === key) this.keys.splice(at, 1);
  }
}

/** The smallest double above `x`. */
function nextUp(x: number): number {
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, x);
  const bits = buffer.getBigInt64(0);
  buffer.setBigInt64(0, x >= 0 ? bits + 1n : bits - 1n);
  return buffer.getFloat64(0);
}
