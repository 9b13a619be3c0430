/** Positions in a list the server holds as sorted keys and reads a window of. */

/** The window's offset that puts `position` in its middle (the start when it is not in the list). */
export function centred(position: number, total: number, limit: number): number {
  if (position < 0) return 0;
  return Math.max(0, Math.min(position - Math.floor(limit / 2), total - limit));
}

/** First index of sorted `keys` whose value is ≥ `key`. */
export function lowerBound(keys: readonly number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
