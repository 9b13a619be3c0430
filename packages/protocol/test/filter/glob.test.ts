import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatcher } from '../../src/filter/values.js';
import { compileFilter, parseFilter } from '../../src/index.js';
import type { ExchangeSummary } from '../../src/index.js';

/** The textbook dynamic-programming wildcard match: obviously right, too slow for the product. */
function reference(pattern: string, s: string): boolean {
  const p = [...pattern];
  const t = [...s];
  let row = new Array<boolean>(t.length + 1).fill(false);
  row[0] = true;
  for (const ch of p) {
    const next = new Array<boolean>(t.length + 1).fill(false);
    if (ch === '*') {
      let any = false;
      for (let j = 0; j <= t.length; j++) {
        any = any || row[j]!;
        next[j] = any;
      }
    } else {
      for (let j = 1; j <= t.length; j++) next[j] = row[j - 1]! && t[j - 1] === ch;
    }
    row = next;
  }
  return row[t.length]!;
}

describe('globMatcher', () => {
  it('agrees with the reference wildcard match on random patterns and names', () => {
    const alphabet = fc.constantFrom('a', 'b', '_', '/', '.', '\n', 'é');
    const name = fc.array(alphabet, { maxLength: 14 }).map((a) => a.join(''));
    const pattern = fc.array(fc.oneof(alphabet, fc.constant('*')), { maxLength: 8 }).map((a) => a.join(''));
    fc.assert(
      fc.property(pattern, name, (p, s) => {
        expect(globMatcher(p)(s)).toBe(reference(p, s));
        expect(globMatcher(p, true)(s.toUpperCase())).toBe(reference(p.toLowerCase(), s.toLowerCase()));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers at once for many stars against a long name that does not match (a backtracking regex took seconds)', () => {
    // `tool:*a*a*a*a*a*a*a*a*a*a*a*a*b` against 64 `a`s: exponential for /^.*a.*a…b$/.
    const filter = parseFilter(`tool:${'*a'.repeat(12)}*b`);
    if (!filter.ok) throw new Error(filter.error.message);
    const predicate = compileFilter(filter.filter);
    const ex = { target: 'a'.repeat(64), method: 'tools/call' } as ExchangeSummary;
    expect(predicate(ex)).toBe(false);
    expect(predicate({ ...ex, target: `${'a'.repeat(64)}b` })).toBe(true);
  });
});
