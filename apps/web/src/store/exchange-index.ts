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
import { exchangeOrderKey, type ExchangeSummary } from '@mcpscope/protocol';

/** What one `apply` changed: new rows and rows whose summary was replaced. */
export interface IndexChange {
  added: ExchangeSummary[];
  updated: ExchangeSummary[];
}

/** Capture order of an exchange id (the protocol package's one definition, shared with the store). */
export const orderKey = exchangeOrderKey;

/** First position in `rows` whose `orderOf` is ≥ `key` (rows sorted by `orderOf`). */
export function lowerBoundBy<T>(rows: readonly T[], key: number, orderOf: (row: T) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (orderOf(rows[mid]!) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position in `ids` whose key is ≥ `key` (ids sorted by orderKey). */
export function lowerBound(ids: readonly string[], key: number): number {
  return lowerBoundBy(ids, key, orderKey);
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

/** Merges sorted `more` into sorted `ids` in place: an append when it all comes after, else one pass. */
export function mergeSorted(ids: string[], more: readonly string[]): void {
  if (more.length === 0) return;
  if (ids.length === 0 || orderKey(ids[ids.length - 1]!) < orderKey(more[0]!)) {
    for (const id of more) ids.push(id);
    return;
  }
  if (more.length < 8) {
    for (const id of more) insertSorted(ids, id);
    return;
  }
  const merged: string[] = new Array(ids.length + more.length);
  let i = 0, j = 0, k = 0;
  while (i < ids.length && j < more.length) merged[k++] = orderKey(ids[i]!) <= orderKey(more[j]!) ? ids[i++]! : more[j++]!;
  while (i < ids.length) merged[k++] = ids[i++]!;
  while (j < more.length) merged[k++] = more[j++]!;
  ids.length = 0;
  for (const id of merged) ids.push(id);
}

const NO_REPLAYS: readonly string[] = [];

export class ExchangeIndex {
  readonly byId = new Map<string, ExchangeSummary>();
  /** Ids in capture order (oldest first). */
  readonly ids: string[] = [];
  /** Moves on every change, so selectors can tell that the (mutable) index changed. */
  version = 0;
  /** Original id → the ids of its replays, in capture order (the detail's "replayed as"). */
  private readonly replaysByOriginal = new Map<string, string[]>();
  /** Calls made by a widget preview, by the tools/call whose widget made them. */
  private readonly widgetCallsByCall = new Map<string, string[]>();

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
      if (ex.replayOf !== undefined && current?.replayOf !== ex.replayOf) link(this.replaysByOriginal, ex.id, ex.replayOf);
      if (ex.widgetOf !== undefined && current?.widgetOf !== ex.widgetOf) link(this.widgetCallsByCall, ex.id, ex.widgetOf);
      if (current) updated.push(ex);
      else added.push(ex);
    }
    if (added.length > 0) {
      // Snapshot pages arrive newest first: sort the batch, then merge once (never O(n) per row).
      added.sort((a, b) => orderKey(a.id) - orderKey(b.id));
      mergeSorted(this.ids, added.map((ex) => ex.id));
    }
    if (added.length > 0 || updated.length > 0) this.version++;
    return { added, updated };
  }

  /** The replays of `id` that this index holds (empty when none). */
  replaysOf(id: string): readonly string[] {
    return this.replaysByOriginal.get(id) ?? NO_REPLAYS;
  }

  /** The calls the widget of `id` made in previews (empty when none). */
  widgetCallsOf(id: string): readonly string[] {
    return this.widgetCallsByCall.get(id) ?? NO_REPLAYS;
  }

  /**
   * Keeps the newest `keep` rows and the `pinned` ones, drops the rest; returns how many it
   * dropped. The links (replays, widget calls) are rebuilt from what is kept.
   */
  trimTo(keep: number, pinned: ReadonlySet<string>): number {
    const cut = this.ids.length - keep;
    if (cut <= 0) return 0;
    const kept: string[] = [];
    for (let i = 0; i < cut; i++) {
      const id = this.ids[i]!;
      if (pinned.has(id)) kept.push(id);
      else this.byId.delete(id);
    }
    const newest = this.ids.slice(cut);
    this.ids.length = 0;
    for (const id of kept) this.ids.push(id);
    for (const id of newest) this.ids.push(id);
    this.replaysByOriginal.clear();
    this.widgetCallsByCall.clear();
    for (const id of this.ids) {
      const ex = this.byId.get(id)!;
      if (ex.replayOf !== undefined) link(this.replaysByOriginal, id, ex.replayOf);
      if (ex.widgetOf !== undefined) link(this.widgetCallsByCall, id, ex.widgetOf);
    }
    this.version++;
    return cut - kept.length;
  }

  clear(): void {
    this.replaysByOriginal.clear();
    this.widgetCallsByCall.clear();
    this.byId.clear();
    this.ids.length = 0;
    this.version++;
  }
}

/** Adds `from` to the sorted list of exchanges linked to `to`. */
function link(lists: Map<string, string[]>, from: string, to: string): void {
  const list = lists.get(to);
  if (!list) lists.set(to, [from]);
  else if (!list.includes(from)) insertSorted(list, from);
}
