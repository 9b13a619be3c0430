/**
 * The spec name a non-spec method or notification name was most likely meant to be: within a
 * small edit distance (`tools/lsit`), a known synonym in the last segment (`resources/get` for
 * `resources/read`, `tools/invoke` for `tools/call`), or one segment too many or too few
 * (`notifications/logging/message` for `notifications/message`). Names that are merely in the
 * same namespace (`notifications/gift_suggestions`) are not near misses: extensions stay quiet.
 */

/** Last segments people write for the spec's. */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  read: ['get', 'fetch', 'load', 'open'],
  get: ['read', 'fetch', 'load'],
  call: ['invoke', 'run', 'execute', 'exec', 'use'],
  list: ['get_all', 'getall', 'all', 'index', 'ls'],
  list_changed: ['listchanged', 'list-changed', 'changed', 'updated'],
  message: ['log', 'logging', 'msg'],
};

/** The candidate names (each a spec name) closest to `name`, or undefined when none is near. */
export function nearMiss(name: string, candidates: Iterable<string>): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === name) return undefined;
    const score = distance(name, candidate);
    if (score !== undefined && (best === undefined || score < best.score)) best = { name: candidate, score };
  }
  return best?.name;
}

/** A score for how near `name` is to `spec` (lower is nearer), or undefined when it is not near. */
function distance(name: string, spec: string): number | undefined {
  const lower = name.toLowerCase();
  if (lower === spec.toLowerCase()) return 0;
  // Short names tolerate one typo, longer ones two.
  const budget = spec.length <= 8 ? 1 : 2;
  const edits = levenshtein(lower, spec.toLowerCase(), budget);
  if (edits <= budget) return edits;
  const got = lower.split('/');
  const want = spec.split('/');
  if (got.length === want.length && got.slice(0, -1).join('/') === want.slice(0, -1).join('/')) {
    const synonyms = SYNONYMS[want.at(-1)!];
    if (synonyms?.includes(got.at(-1)!)) return budget + 1;
  }
  // One segment inserted or left out, first and last segments kept.
  if (Math.abs(got.length - want.length) === 1 && got[0] === want[0] && got.at(-1) === want.at(-1) && Math.min(got.length, want.length) >= 2) {
    const [longer, shorter] = got.length > want.length ? [got, want] : [want, got];
    for (let i = 1; i < longer.length - 1; i++) {
      if ([...longer.slice(0, i), ...longer.slice(i + 1)].join('/') === shorter.join('/')) return budget + 2;
    }
  }
  return undefined;
}

/** Levenshtein distance, giving up (returning budget + 1) once it must exceed `budget`. */
export function levenshtein(a: string, b: string, budget: number): number {
  if (Math.abs(a.length - b.length) > budget) return budget + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > budget) return budget + 1;
    previous = current;
  }
  return previous[b.length]!;
}
