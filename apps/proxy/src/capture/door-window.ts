/**
 * Door records served by position, as capture-window.ts serves exchanges: the records a filter
 * keeps, oldest first (arrival order, the Connections table's), read as a window
 * `[offset, offset + limit)` with the list's length. The browser holds only what it shows.
 *
 * Two ways to know the list, chosen per filter:
 * - counted: no filter, or one SQL decides exactly (door-filter-sql.ts). The length is a COUNT
 *   that moves by the records written since (list-count.ts); a window is ids by LIMIT/OFFSET from the nearer end of
 *   the list, each record then read whole by id (door-table.ts owns every read of the table).
 * - scanned: free text and whatever needs the door matcher. The ids of matching records are
 *   collected oldest first, SLICE_MS per request; an answer from a scan not yet at the newest
 *   record says `complete: false` (the dashboard asks again). Records written since the scan
 *   looked at them are matched again, so the list stays what the matcher keeps.
 *
 * Invariant: the window at any position equals that slice of "every door record, in id order,
 * kept by the door matcher" (test/door-window.test.ts).
 */
import { compileDoorFilter, type DoorPredicate, type DoorRecord, type Filter } from '@mcpscope/protocol';
import type { DoorTable } from './door-table.js';
import { doorFilterToSql } from './door-filter-sql.js';
import type { SqlFilter } from './filter-sql.js';
import { centred, lowerBound } from './list-position.js';
import { ListCounts } from './list-count.js';

/** Milliseconds a scan runs within one request. */
const SLICE_MS = 25;
/** Scans kept at once (one per filter the dashboards show). */
const MAX_SCANS = 4;
/** Records written since a scan looked that it matches again before it starts over instead. */
const MAX_RECHECK = 5000;

/** Where the window starts: a position, the end of the list, or around one record. */
export type DoorWindowAt = { offset: number } | { end: true } | { around: number };

export interface DoorWindowAnswer {
  offset: number;
  total: number;
  complete: boolean;
  records: DoorRecord[];
  /** With `around`: its position in the list, -1 when the filter does not keep it (or not yet). */
  position?: number;
}

export class DoorWindows {
  private readonly scans = new Map<string, DoorScan>();
  private readonly counts: ListCounts;

  constructor(
    private readonly door: DoorTable,
    private readonly sliceMs = SLICE_MS,
    options: { now?: () => number; wholeCountRows?: number } = {},
  ) {
    this.counts = new ListCounts(options.now ?? Date.now, options.wholeCountRows);
  }

  /** `text` is the filter as typed: what its scan is kept under. */
  window(filter: Filter | null, text: string, at: DoorWindowAt, limit: number): DoorWindowAnswer {
    const pushed = doorFilterToSql(filter);
    if (filter === null || pushed?.exact) return this.counted(pushed, at, limit);
    return this.scanned(filter, text, at, limit);
  }

  private counted(pushed: SqlFilter | undefined, at: DoorWindowAt, limit: number): DoorWindowAnswer {
    const total = this.count(pushed);
    let position: number | undefined;
    if ('around' in at) position = this.door.keeps(pushed, at.around) ? this.door.countKept(pushed, at.around) : -1;
    const offset = startOf(at, position, total, limit);
    const answer: DoorWindowAnswer = { offset, total, complete: true, records: this.read(this.idsAt(pushed, offset, Math.min(limit, total - offset), total)) };
    if (position !== undefined) answer.position = position;
    return answer;
  }

  /**
   * Ids at positions `[offset, offset + n)` of a counted list of `total` records, oldest first,
   * read from the nearer end of the list: OFFSET steps over at most half of it, and none at the
   * end, where the Connections table opens.
   */
  private idsAt(pushed: SqlFilter | undefined, offset: number, n: number, total: number): number[] {
    if (n <= 0) return [];
    const after = total - offset - n;
    return after < offset ? this.door.idsKept(pushed, after, n, true).reverse() : this.door.idsKept(pushed, offset, n);
  }

  /**
   * Length of a counted list (list-count.ts). New records take ids above every record's; a record's
   * fields may change (its answer arrives), so only the unfiltered list is settled.
   */
  private count(pushed: SqlFilter | undefined): number {
    return this.counts.count(
      {
        key: pushed ? pushed.sql + JSON.stringify(pushed.params) : '',
        settled: pushed === undefined,
        whole: () => this.door.countAbove(pushed, 0),
        after: (last) => this.door.countAbove(pushed, last),
      },
      this.door.heads().rev,
      this.door.idsKept(undefined, 0, 1)[0] ?? 0,
    );
  }

  private scanned(filter: Filter, text: string, at: DoorWindowAt, limit: number): DoorWindowAnswer {
    const oldest = this.door.idsKept(undefined, 0, 1)[0] ?? 0;
    let scan = this.scans.get(text);
    if (scan && scan.oldest !== oldest) scan = undefined; // retention removed records it holds
    if (!scan) scan = new DoorScan(this.door, filter, oldest);
    // Most recently used last: the scans dropped first are the ones unused longest.
    this.scans.delete(text);
    this.scans.set(text, scan);
    for (const key of this.scans.keys()) if (this.scans.size > MAX_SCANS) this.scans.delete(key);
    scan.catchUp();
    scan.step(this.sliceMs);
    const ids = scan.ids;
    let position: number | undefined;
    if ('around' in at) {
      const found = lowerBound(ids, at.around);
      position = ids[found] === at.around ? found : -1;
    }
    const offset = startOf(at, position, ids.length, limit);
    const answer: DoorWindowAnswer = { offset, total: ids.length, complete: scan.done, records: this.read(ids.slice(offset, offset + limit)) };
    if (position !== undefined) answer.position = position;
    return answer;
  }

  private read(ids: readonly number[]): DoorRecord[] {
    return ids.flatMap((id) => this.door.get(id) ?? []);
  }
}

/** The window's first position: asked, the end's, or the one that puts `position` in the middle. */
function startOf(at: DoorWindowAt, position: number | undefined, total: number, limit: number): number {
  if ('end' in at) return Math.max(0, total - limit);
  if ('offset' in at) return Math.min(at.offset, total);
  return centred(position ?? -1, total, limit);
}

/** The ids a filter keeps, collected oldest first, resumable. */
class DoorScan {
  ids: number[] = [];
  /** Every record with an id up to this one has been looked at. */
  private after = 0;
  /** Records written up to this rev were looked at as written. */
  private seenRev: number;
  done = false;
  private readonly match: DoorPredicate;

  constructor(
    private readonly door: DoorTable,
    private readonly filter: Filter,
    /** The oldest record's id when the scan began. */
    readonly oldest: number,
  ) {
    this.match = compileDoorFilter(filter);
    this.seenRev = door.heads().rev;
  }

  /** Records written since (a new one, or one whose answer arrived) are matched again. */
  catchUp(): void {
    const { id: head, rev } = this.door.heads();
    if (rev === this.seenRev) return;
    const changed = this.door.updatedAfter(this.seenRev, MAX_RECHECK + 1);
    this.seenRev = rev;
    if (changed.length > MAX_RECHECK) {
      this.ids = [];
      this.after = 0;
    } else {
      for (const json of changed) {
        const record = JSON.parse(json) as DoorRecord;
        if (record.id > this.after) continue;
        const at = lowerBound(this.ids, record.id);
        const held = this.ids[at] === record.id;
        const kept = this.match(record);
        if (held && !kept) this.ids.splice(at, 1);
        else if (!held && kept) this.ids.splice(at, 0, record.id);
      }
    }
    if (head > this.after) this.done = false;
  }

  /** Looks at records oldest first for up to `ms` milliseconds. */
  step(ms: number): void {
    if (this.done) return;
    const head = this.door.heads().id;
    const page = this.door.page(this.filter, this.after, Number.MAX_SAFE_INTEGER, ms);
    for (const record of page.requests) this.ids.push(record.id);
    this.after = page.nextAfter ?? head;
    this.done = page.nextAfter === undefined;
  }
}
