// utf8Length counts what TextEncoder would write, for any string: ASCII, two- and three-byte
// characters, surrogate pairs and lone surrogates (which encoders write as U+FFFD).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../src/index.js';

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe('utf8Length', () => {
  it('is the length TextEncoder writes, for any UTF-16 string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(encoded(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts the bytes of each width', () => {
    expect(utf8Length('{"a":1}')).toBe(7);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('日本')).toBe(6);
    expect(utf8Length('🎁')).toBe(4);
    expect(utf8Length('\ud83c')).toBe(3);
    expect(utf8Length('\udf81\ud83c')).toBe(6);
  });
});
