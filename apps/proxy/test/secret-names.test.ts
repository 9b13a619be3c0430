// The header rule's verdicts are remembered by name: remembering must never change one, however
// many names a client invents (the memory is bounded and empties itself).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isSecretHeader } from '../src/redaction/secret-names.js';

const KNOWN: [string, boolean][] = [
  ['Authorization', true],
  ['x-api-key', true],
  ['X-Shopify-Access-Token', true],
  ['Cookie', true],
  ['Content-Type', false],
  ['mcp-session-id', false],
  ['accept', false],
];

describe('isSecretHeader', () => {
  it('gives the same verdict before and after a flood of invented names', () => {
    const before = KNOWN.map(([name]) => isSecretHeader(name));
    expect(before).toEqual(KNOWN.map(([, secret]) => secret));
    for (let i = 0; i < 5000; i++) isSecretHeader(`x-invented-${i}${i % 7 === 0 ? '-token' : ''}`);
    expect(KNOWN.map(([name]) => isSecretHeader(name))).toEqual(before);
  });

  it('answers any name the same way twice, with other names between', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), fc.array(fc.string(), { maxLength: 50 }), (name, others) => {
        const first = isSecretHeader(name);
        for (const other of others) isSecretHeader(other);
        expect(isSecretHeader(name)).toBe(first);
        expect(isSecretHeader(name.toUpperCase())).toBe(isSecretHeader(name.toLowerCase()));
      }),
    );
  });
});
