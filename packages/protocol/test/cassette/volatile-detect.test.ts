// Finding the paths that vary between two answers to the same request, so a saved golden capture
// lists them as `--ignore`: exactly the ones verify's own comparison would trip on, widened over
// array indexes, never what the built-in rules already mask, never a status change.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareOutcomes, detectVolatilePaths, outcomeOf, parseIgnore, type JsonObject, type JsonValue } from '../../src/index.js';

const answer = (result: JsonObject): JsonValue => ({ jsonrpc: '2.0', id: 1, result });

describe('detectVolatilePaths', () => {
  it('lists a counter and a random text in an array, widened over the index', () => {
    const before = answer({ content: [{ type: 'text', text: 'roll: 4' }, { type: 'text', text: 'roll: 2' }], structuredContent: { visits: 1, city: 'Lyon' } });
    const after = answer({ content: [{ type: 'text', text: 'roll: 6' }, { type: 'text', text: 'roll: 1' }], structuredContent: { visits: 2, city: 'Lyon' } });
    const found = detectVolatilePaths([{ before, after, evidence: '#3 and its replay #9' }]);
    expect(found.map((f) => f.path).sort()).toEqual(['$.result.content[*].text', '$.result.structuredContent.visits']);
    expect(found[0]!.evidence).toBe('#3 and its replay #9');
  });

  it('lists nothing verify already masks, nor a status change', () => {
    const masked = detectVolatilePaths([{ before: answer({ createdAt: 'x', note: 'at 2026-01-01T00:00:00Z' }), after: answer({ createdAt: 'y', note: 'at 2027-02-02T10:00:00Z' }), evidence: 'a' }]);
    expect(masked).toEqual([]);
    const status = detectVolatilePaths([{ before: answer({ a: 1 }), after: { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } }, evidence: 'b' }]);
    expect(status).toEqual([]);
  });

  it('with what it finds ignored, every pair compares as verify would pass it (property)', () => {
    const leaf = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean());
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('k', 'n', 'list'), value, { minKeys: 1 }), fc.dictionary(fc.constantFrom('k', 'n', 'list'), value, { minKeys: 1 }), (a, b) => {
        const before = answer(a as JsonObject);
        const after = answer({ ...(a as JsonObject), ...(b as JsonObject) });
        const found = detectVolatilePaths([{ before, after, evidence: 'p' }], 1000);
        const ignore = parseIgnore(found.map((f) => f.path));
        if (!ignore.ok) return false;
        const verdict = compareOutcomes(outcomeOf(before), outcomeOf(after), { ignore: ignore.patterns }).verdict;
        // Past the per-pair bound the answers are simply different; under it they pass.
        return found.length >= 8 || verdict === 'same' || verdict === 'changed';
      }),
      { numRuns: 300 },
    );
  });
});
