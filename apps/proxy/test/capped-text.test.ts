/**
 * Capture's text of a body, decoded chunk by chunk as it arrives: whatever the chunking, it is the
 * body's text when the body is within the limit, and the text of its first bytes when it is not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CappedText } from '../src/tap/http/capped-text.js';

/** A UTF-8 body and the places it is split into chunks (often inside a character). */
const chunked = fc
  .tuple(fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\n', '"'), maxLength: 80 }), fc.array(fc.nat(400), { maxLength: 12 }))
  .map(([text, cuts]) => {
    const bytes = Buffer.from(text);
    const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
    const chunks: Buffer[] = [];
    let from = 0;
    for (const c of [...at, bytes.length]) {
      chunks.push(bytes.subarray(from, c));
      from = c;
    }
    return { bytes, chunks: chunks.filter((c) => c.length > 0) };
  });

describe('CappedText', () => {
  it('is the whole text within the limit, and the first bytes past it, however the body is chunked', () => {
    fc.assert(
      fc.property(chunked, fc.integer({ min: 1, max: 200 }), ({ bytes, chunks }, limit) => {
        const captured = new CappedText(limit);
        for (const c of chunks) captured.push(c);
        expect(captured.size).toBe(bytes.length);
        expect(captured.cut).toBe(bytes.length > limit);
        if (!captured.cut) {
          expect(captured.text()).toBe(bytes.toString('utf8'));
          return;
        }
        // Past the limit: the first `limit` bytes (a character cut in half at the end may show as
        // U+FFFD, or be left out when its bytes had not been decoded yet).
        const expected = bytes.subarray(0, limit).toString('utf8');
        const text = captured.text();
        expect([expected, expected.replace(/\uFFFD$/, '')]).toContain(text);
        expect(text.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('a body stopped before its end (recorded early) keeps what arrived, as a cut body', () => {
    fc.assert(
      fc.property(chunked, fc.integer({ min: 1, max: 200 }), fc.nat(), ({ bytes, chunks }, limit, stopAfter) => {
        const captured = new CappedText(limit);
        const arrived = chunks.slice(0, stopAfter % (chunks.length + 1));
        for (const c of arrived) captured.push(c);
        captured.stop();
        for (const c of chunks.slice(arrived.length)) captured.push(c);
        expect(captured.cut).toBe(true);
        expect(captured.size).toBe(bytes.length);
        const received = Buffer.concat(arrived);
        const expected = received.subarray(0, limit).toString('utf8');
        expect([expected, expected.replace(/\uFFFD$/, '')]).toContain(captured.text());
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps nothing more of a body past the limit as more arrives', () => {
    const captured = new CappedText(16);
    for (let i = 0; i < 100; i++) captured.push(Buffer.from('0123456789'));
    expect(captured.text()).toBe('0123456789012345');
    expect(captured.size).toBe(1000);
  });
});
