/**
 * The lengths of lists the dashboards count (capture-window.ts for exchanges, door-window.ts for
 * door records), remembered across writes. Both lists grow only at their end: a new row's key (an
 * exchange's sort key, a door record's id) is above every key counted before. So at a new head a
 * list's count moves by the rows stored since, counted from an index range, instead of by a COUNT
 * over the whole capture on the thread the tap forwards on (a million rows: ~30 ms each time).
 *
 * A list kept by fields a row never changes (`settled`) is exact that way. Rows already counted may
 * change (a status, a latency): such a list is counted whole at each head while it holds fewer
 * than `wholeCountRows` rows (a few milliseconds of COUNT); a longer one adds the rows stored since
 * and is counted whole again once RECOUNT_EVERY times that count's own duration has passed, so
 * counting takes about 1/RECOUNT_EVERY of the thread, and a changed row shows in the total within
 * that time. A list whose oldest row went (retention) is counted whole again.
 */

/** Rows from which a list that may change is no longer counted whole at each head. */
export const WHOLE_COUNT_ROWS = 100_000;
const RECOUNT_EVERY = 20;

/** A count and the highest key the capture held when it was taken: rows above it are not in `n`. */
export interface Counted {
  n: number;
  last: number;
}

interface ListCount extends Counted {
  head: number;
  /** When the list was last counted whole (`now()`), and how long that took (ms). */
  wholeAt: number;
  wholeMs: number;
  /** Rows were added to `n` since the whole count of a list whose counted rows may change. */
  drifted: boolean;
}

export interface CountOf {
  /** The list's key (its filter and start). */
  key: string;
  settled: boolean;
  /** The whole list, with the capture's highest key, in one snapshot. */
  whole(): Counted;
  /** The list's rows above `last`, with the capture's highest key, in one snapshot. */
  after(last: number): Counted;
}

export class ListCounts {
  private readonly counts = new Map<string, ListCount>();
  private oldest = Number.NaN;

  constructor(
    private readonly now: () => number,
    private readonly wholeCountRows = WHOLE_COUNT_ROWS,
  ) {}

  /** The list's length at `head` (the capture's newest write) with `oldest` its oldest row. */
  count(list: CountOf, head: number, oldest: number): number {
    if (oldest !== this.oldest) {
      this.counts.clear();
      this.oldest = oldest;
    }
    const known = this.counts.get(list.key);
    const recountDue = known !== undefined && !list.settled && (known.n < this.wholeCountRows || this.now() - known.wholeAt > RECOUNT_EVERY * known.wholeMs);
    if (known?.head === head && !(known.drifted && recountDue)) return known.n;
    if (known && known.head !== head && !recountDue) {
      const since = list.after(known.last);
      known.n += since.n;
      known.last = Math.max(known.last, since.last);
      known.head = head;
      known.drifted = !list.settled;
      return known.n;
    }
    const started = performance.now();
    const whole = list.whole();
    this.counts.set(list.key, { ...whole, head, wholeAt: this.now(), wholeMs: performance.now() - started, drifted: false });
    return whole.n;
  }
}
