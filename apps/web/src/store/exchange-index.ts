/**
 * A normalised, ordered index of exchange summaries, updated in place.
 *
 * Invariants: `ids` holds every key of `byId` exactly once, sorted by `orderKey` (capture order,
 * batch items after their frame). Applying the same update twice is harmless (the WebSocket
 * catch-up may overlap the HTTP snapshot), and a copy older than the one held is ignored.
 *
 * Mutation in place is deliberate: copying a 100,000-entry Map per animation frame costs more
 * than the frame budget. Consumers re-render on `version`, which moves on every change.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';

/** What one `apply` changed: new rows and rows whose summary was replaced. */
export interface IndexChange {
  added: ExchangeSummary[];
  updated: ExchangeSummary[];
}

/** `12` → 12, `12.3` → 12.0004 (batch items after their frame, in order). */
export function orderKey(id: string): number {
  const dot = id.indexOf('.');
  return dot === -1 ? Number(id) : Number(id.slice(0, dot)) + (Number(id.slice(dot + 1)) + 1) / 10_000;
}

/** First position in `ids` whose key is ≥ `key` (ids sorted by orderKey). */
export function lowerBound(ids: readonly string[], key: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (orderKey(ids[mid]!) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `id` into sorted `ids`; appending is the common, O(1) case. */
export function insertSorted(ids: string[], id: string): void {
  const key = orderKey(id);
  if (ids.length === 0 || orderKey(ids[ids.length - 1]!) < key) {
    ids.push(id);
    return;
  }
  ids.splice(lowerBound(ids, key), 0, id);
}

export class ExchangeIndex {
  readonly byId = new Map<string, ExchangeSummary>();
  /** Ids in capture order (oldest first). */
  readonly ids: string[] = [];
  /** Moves on every change, so selectors can tell that the (mutable) index changed. */
  version = 0;

  get size(): number {
    return this.ids.length;
  }

  get(id: string): ExchangeSummary | undefined {
    return this.byId.get(id);
  }

  /** Applies updates in place; returns what changed (both lists empty when nothing did). */
  apply(updates: readonly ExchangeSummary[]): IndexChange {
    const added: ExchangeSummary[] = [];
    const updated: ExchangeSummary[] = [];
    for (const ex of updates) {
      const current = this.byId.get(ex.id);
      // A stale copy or a repeat: each change to a summary comes with a higher updatedSeq.
      if (current && current.updatedSeq >= ex.updatedSeq) continue;
      this.byId.set(ex.id, ex);
      if (current) updated.push(ex);
      else {
        insertSorted(this.ids, ex.id);
        added.push(ex);
      }
    }
    if (added.length > 0 || updated.length > 0) this.version++;
    return { added, updated };
  }

  clear(): void {
    this.byId.clear();
    this.ids.length = 0;
    this.version++;
  }
}
