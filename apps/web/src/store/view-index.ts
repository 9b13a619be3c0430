/**
 * The filtered view of the exchange index: the ids that match the current predicate, in capture
 * order. Rebuilt in one pass when the predicate changes; afterwards kept up to date from each
 * batch's changes alone, so live ingest costs O(batch), not O(rows), per animation frame.
 * Positions come from binary search on the order key, so no position map has to be maintained.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';
import { insertSorted, lowerBound, orderKey, type ExchangeIndex, type IndexChange } from './exchange-index.js';

export type ExchangePredicate = (ex: ExchangeSummary) => boolean;

export const matchAll: ExchangePredicate = () => true;

export class ViewIndex {
  ids: string[] = [];
  private members = new Set<string>();
  version = 0;

  constructor(private predicate: ExchangePredicate = matchAll) {}

  /** Re-evaluates every row against a new predicate. */
  rebuild(index: ExchangeIndex, predicate: ExchangePredicate = this.predicate): void {
    this.predicate = predicate;
    const ids: string[] = [];
    if (predicate === matchAll) ids.push(...index.ids);
    else for (const id of index.ids) if (predicate(index.byId.get(id)!)) ids.push(id);
    this.ids = ids;
    this.members = new Set(ids);
    this.version++;
  }

  /** Applies one batch of index changes. */
  applyChange(change: IndexChange): void {
    let moved = false;
    for (const ex of change.added) {
      if (!this.predicate(ex)) continue;
      insertSorted(this.ids, ex.id);
      this.members.add(ex.id);
      moved = true;
    }
    for (const ex of change.updated) {
      const was = this.members.has(ex.id);
      const now = this.predicate(ex);
      if (was === now) continue;
      moved = true;
      if (now) {
        insertSorted(this.ids, ex.id);
        this.members.add(ex.id);
      } else {
        const at = this.indexOf(ex.id);
        if (at >= 0) this.ids.splice(at, 1);
        this.members.delete(ex.id);
      }
    }
    if (moved || change.updated.length > 0) this.version++;
  }

  has(id: string): boolean {
    return this.members.has(id);
  }

  /** Position of `id` in the view, or -1. */
  indexOf(id: string): number {
    if (!this.members.has(id)) return -1;
    const at = lowerBound(this.ids, orderKey(id));
    return this.ids[at] === id ? at : -1;
  }

  get size(): number {
    return this.ids.length;
  }
}
