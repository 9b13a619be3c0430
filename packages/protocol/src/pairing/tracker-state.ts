/**
 * The ExchangeTracker's state as plain JSON, for CaptureDeriver snapshots. Several indexes point
 * at the same in-flight exchange object (by pair key, progress token, connection), and pairing
 * mutates that one object, so the state lists each exchange once (`rows`) and every index refers
 * to it by position: a restore rebuilds the same sharing. Map order is kept (it decides which
 * entry a bounded index evicts first, and the order of updates a transport failure emits).
 */
import type { ExchangeSummary } from '../model/exchange.js';
import { copyJson } from '../model/json-copy.js';

export type Entries = [key: string, row: number][];

export interface TrackerState {
  rows: ExchangeSummary[];
  open: Entries;
  orphans: Entries;
  progress: Entries;
  junkRequests: Entries;
  cutShort: Entries;
  byConnection: [connection: string, rows: number[]][];
  indexedUnder: [row: number, progressKey: string | null, connection: string | null][];
  /** Earlier requests still in flight under a pair key that a later request took (absent in older snapshots). */
  shadowed?: [key: string, rows: number[]][];
}

/** Numbers exchange objects in first-seen order; `rows()` are deep copies, safe to keep. */
export class RowNumbering {
  private readonly index = new Map<ExchangeSummary, number>();
  private readonly list: ExchangeSummary[] = [];

  ref(ex: ExchangeSummary): number {
    let i = this.index.get(ex);
    if (i === undefined) {
      i = this.list.length;
      this.index.set(ex, i);
      this.list.push(ex);
    }
    return i;
  }

  entries(map: Map<string, ExchangeSummary>): Entries {
    return [...map].map(([key, ex]) => [key, this.ref(ex)]);
  }

  rows(): ExchangeSummary[] {
    return this.list.map((ex) => copyJson(ex));
  }
}

/** Resolves row positions of a state back to (fresh, shared) exchange objects. */
export class RowTable {
  private readonly list: ExchangeSummary[];

  constructor(rows: unknown) {
    if (!Array.isArray(rows)) throw new TypeError('tracker state: rows is not a list');
    this.list = (rows as ExchangeSummary[]).map((ex) => copyJson(ex));
  }

  at(i: number): ExchangeSummary {
    const ex = this.list[i];
    if (ex === undefined) throw new TypeError(`tracker state: no row ${i}`);
    return ex;
  }

  fill(map: Map<string, ExchangeSummary>, entries: Entries): void {
    for (const [key, i] of entries) map.set(key, this.at(i));
  }
}
