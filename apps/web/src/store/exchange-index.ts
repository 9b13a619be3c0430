/**
 * A normalised, ordered index of exchange summaries. Applying the same update twice is harmless
 * (the WebSocket catch-up may overlap the HTTP snapshot), and updates keep capture order.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';

export interface ExchangeIndex {
  byId: Map<string, ExchangeSummary>;
  /** Ids in capture order (oldest first). */
  ids: string[];
}

export const emptyIndex = (): ExchangeIndex => ({ byId: new Map(), ids: [] });

/** `12` → 12, `12.3` → 12.0004 (batch items after their frame, in order). */
export function orderKey(id: string): number {
  const dot = id.indexOf('.');
  return dot === -1 ? Number(id) : Number(id.slice(0, dot)) + (Number(id.slice(dot + 1)) + 1) / 10_000;
}

/** Returns a new index with the updates applied; unchanged when nothing is newer. */
export function applyExchanges(index: ExchangeIndex, updates: readonly ExchangeSummary[]): ExchangeIndex {
  let changed = false;
  const byId = new Map(index.byId);
  const added: string[] = [];
  for (const ex of updates) {
    const current = byId.get(ex.id);
    if (current && current.updatedSeq > ex.updatedSeq) continue; // a stale copy
    if (!current) added.push(ex.id);
    byId.set(ex.id, ex);
    changed = true;
  }
  if (!changed) return index;
  let ids = index.ids;
  if (added.length > 0) {
    added.sort((a, b) => orderKey(a) - orderKey(b));
    const last = ids.length > 0 ? orderKey(ids[ids.length - 1]!) : -Infinity;
    // The common case: new rows come after every known row, so appending keeps the order.
    ids = orderKey(added[0]!) > last ? ids.concat(added) : [...ids, ...added].sort((a, b) => orderKey(a) - orderKey(b));
  }
  return { byId, ids };
}
