/**
 * Maps kept as LRU lists (insertion order is recency; the first entry is the one evicted). An
 * entry moves to the end (a delete and a set) only once it has drifted out of the newest quarter:
 * moving it on every use rebuilt the Map's table every few uses, garbage a long capture's GC
 * then promoted and swept. Only the first entry is ever evicted, and an entry in the newest
 * quarter is never the first. `epoch` is the map's insertion count when the entry last moved.
 */
export function leftNewestQuarter(epoch: number, insertions: number, max: number): boolean {
  return insertions - epoch > max / 4;
}
