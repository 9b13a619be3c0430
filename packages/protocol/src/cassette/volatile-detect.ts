/**
 * Which JSON paths of a capture's answers vary on their own: two answers to the same request (a
 * call and its replay, or the same method with the same meaningful params called twice) that
 * `compareOutcomes` would not call the same. Each such path, with its array indexes widened to
 * `[*]`, is a `--ignore` for `mcpscope verify`, so a golden capture saved from the dashboard does
 * not fail its first CI run on a counter or a random id the built-in rules do not know.
 *
 * The paths are found with the comparison verify itself runs: the first difference is ignored and
 * the pair compared again, until the two are the same (or only gained members, which passes). A
 * status difference (ok against an error) is never volatile and ends the search for that pair.
 * Whatever the built-in rules already mask (date-times, UUIDs, volatile member names) is never
 * listed: verify masks it without being told.
 */
import { compareOutcomes, outcomeOf } from './compare.js';
import { parseIgnore } from './volatile.js';
import type { JsonValue } from '../model/json-rpc.js';
import type { PathPattern } from '../model/json-path.js';

/** Two answers to one request, and how the user would know them (`#12 and its replay #31`). */
export interface AnswerPair {
  before: JsonValue;
  after: JsonValue;
  evidence: string;
}

export interface VolatilePath {
  /** A `--ignore` pattern (`$.result.content[*].text`). */
  path: string;
  /** The first pair it differed in. */
  evidence: string;
}

/** Differences followed per pair: past it, a pair is two different answers, not one with noise. */
const PATHS_PER_PAIR = 8;

/** A concrete path with every array index widened: `$.a[3].b` → `$.a[*].b`. */
export function widenIndexes(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}

export function detectVolatilePaths(pairs: Iterable<AnswerPair>, limit = 20): VolatilePath[] {
  const found = new Map<string, VolatilePath>();
  const patterns: PathPattern[] = [];
  for (const pair of pairs) {
    const before = outcomeOf(pair.before);
    const after = outcomeOf(pair.after);
    for (let i = 0; i < PATHS_PER_PAIR && found.size < limit; i++) {
      const comparison = compareOutcomes(before, after, { ignore: patterns });
      const path = comparison.difference?.path;
      if (comparison.verdict !== 'regressed' || comparison.difference?.kind === 'status' || path === undefined || path === '$') break;
      const widened = widenIndexes(path);
      const parsed = parseIgnore([widened]);
      if (!parsed.ok || found.has(widened)) break;
      found.set(widened, { path: widened, evidence: pair.evidence });
      patterns.push(...parsed.patterns);
    }
    if (found.size >= limit) break;
  }
  return [...found.values()];
}
