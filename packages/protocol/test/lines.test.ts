import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../src/index.js';

const enc = new TextEncoder();

describe('LineSplitter', () => {
  it('splits on LF, strips one trailing CR, and keeps multi-byte characters whole', () => {
    const s = new LineSplitter();
    const bytes = enc.encode('{"a":"é"}\r\n{"b":"😀"}\n');
    const items = [...bytes].flatMap((b) => s.push(Uint8Array.of(b)));
    expect(items.map((i) => i.text)).toEqual(['{"a":"é"}', '{"b":"😀"}']);
  });

  it('reports a line over the cap instead of buffering it without bound', () => {
    const s = new LineSplitter(16);
    const items = s.push(enc.encode(`${'x'.repeat(40)}\nok\n`));
    expect(items[0]).toMatchObject({ truncated: true, byteLength: 40, text: 'x'.repeat(16) });
    expect(items[1]).toMatchObject({ truncated: false, text: 'ok' });
  });

  it('gives the same lines for every chunking', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }).map((t) => t.replace(/[\r\n]/g, '')), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), (lines, points) => {
        const bytes = enc.encode(lines.map((l) => `${l}\n`).join(''));
        const whole = new LineSplitter().push(bytes).map((i) => i.text);
        const s = new LineSplitter();
        const cuts = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
        const parts: string[] = [];
        let at = 0;
        for (const p of [...cuts, bytes.length]) {
          parts.push(...s.push(bytes.subarray(at, p)).map((i) => i.text));
          at = p;
        }
        expect(parts).toEqual(whole);
        expect(whole).toEqual(lines);
      }),
    );
  });
});
