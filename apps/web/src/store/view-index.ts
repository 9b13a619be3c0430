/**
 * The filtered view of the exchange index: the ids that match the current predicate, in capture
 * order. Rebuilt in one pass when the predicate changes; afterwards kept up to date from each
 * batch's changes alone, so live ingest costs O(batch), not O(rows), per animation frame.
 * Positions and membership come from binary search on the order key, so no position map or
 * member set has to be built (a 100,000-entry Set per keystroke costs more than the filter).
 */
import type { ExchangeSummary } from '@mcpscope/protocol';
import { insertSorted, lowerBound, mergeSorted, orderKey, type ExchangeIndex, type IndexChange } from './exchange-index.js';

export type ExchangePredicate = (ex: ExchangeSummary) => boolean;

export const matchAll: ExchangePredicate = () => true;

export class ViewIndex {
  ids: string[] = [];
  version = 0;
  /** Rows that entered the view because they were captured (not because the filter changed): the "N new" count. */
  arrived = 0;

  constructor(private predicate: ExchangePredicate = matchAll) {}

  /** Re-evaluates every row against a new predicate. */
  rebuild(index: ExchangeIndex, predicate: ExchangePredicate = this.predicate): void {
    this.predicate = predicate;
    // A copy, never a spread into push(): past ~125,000 ids a spread's arguments overflow V8's stack.
    let ids: string[];
    if (predicate === matchAll) ids = index.ids.slice();
    else {
      ids = [];
      for (const id of index.ids) if (predicate(index.byId.get(id)!)) ids.push(id);
    }
    this.ids = ids;
    this.version++;
  }

  /** Applies one batch of index changes. */
  applyChange(change: IndexChange): void {
    // `added` is sorted by the index, so matching rows merge in one pass.
    const matching: string[] = [];
    for (const ex of change.added) if (this.predicate(ex)) matching.push(ex.id);
    mergeSorted(this.ids, matching);
    this.arrived += matching.length;
    for (const ex of change.updated) {
      const at = this.indexOf(ex.id);
      const now = this.predicate(ex);
      if (at >= 0 && !now) this.ids.splice(at, 1);
      else if (at < 0 && now) insertSorted(this.ids, ex.id);
    }
    if (change.added.length > 0 || change.updated.length > 0) this.version++;
  }

  has(id: string): boolean {
    return this.indexOf(id) >= 0;
  }

  /** Position of `id` in the view, or -1. */
  indexOf(id: string): number {
    const at = lowerBound(this.ids, orderKey(id));
    return this.ids[at] === id ? at : -1;
  }

  get size(): number {
    return this.ids.length;
  }
}
