import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deeperThan, stringifyJson } from '../src/index.js';
import { stringifyIteratively } from '../src/model/json-depth.js';

function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
}

describe('json depth helpers', () => {
  it('the stack-free serialiser writes what JSON.stringify writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(stringifyIteratively(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 500 },
    );
  });

  it('stringifyJson serialises a value nested 100,000 deep, which JSON.stringify cannot', () => {
    const text = `${'['.repeat(100_000)}"s"${']'.repeat(100_000)}`;
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(stringifyJson(value)).toBe(text);
    const mixed = nested(50_000, { a: 1, b: [null, 'x'] });
    expect(JSON.parse(stringifyJson(mixed))).toBeTruthy();
  });

  it('deeperThan counts container levels', () => {
    expect(deeperThan(1, 0)).toBe(false);
    expect(deeperThan([], 0)).toBe(true);
    expect(deeperThan(nested(10, 1), 10)).toBe(false);
    expect(deeperThan(nested(11, 1), 10)).toBe(true);
    expect(deeperThan(nested(100_000, 1), 64)).toBe(true);
  });
});
