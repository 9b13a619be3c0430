import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser, type SseItem } from '../src/index.js';

const enc = new TextEncoder();

function parseChunks(chunks: Uint8Array[]): SseItem[] {
  const p = new SseParser();
  return [...chunks.flatMap((c) => p.push(c)), ...p.end()];
}

/** Splits bytes at the given cut points. */
function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of sorted) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

describe('SseParser', () => {
  it('keeps priming events, ids, event names, retry and comments', () => {
    const text = 'id: p1\ndata: \n\n: keepalive\n\nevent: message\nid: e2\ndata: {"a":1}\n\nretry: 3000\n\n';
    expect(parseChunks([enc.encode(text)])).toEqual([
      { type: 'event', data: '', hasData: true, id: 'p1' },
      { type: 'comment', text: 'keepalive' },
      { type: 'event', data: '{"a":1}', hasData: true, event: 'message', id: 'e2' },
      { type: 'event', data: '', hasData: false, retry: 3000 },
    ]);
  });

  it('joins multi-line data and accepts CR, LF and CRLF line ends', () => {
    const text = 'data: a\r\ndata: b\rdata: c\n\r\n';
    expect(parseChunks([enc.encode(text)])).toEqual([{ type: 'event', data: 'a\nb\nc', hasData: true }]);
  });

  it('gives the same items for every chunking of the same bytes (CRLF and UTF-8 splits included)', () => {
    const line = fc.stringMatching(/^[^\r\n]{0,20}$/);
    const event = fc.record({
      data: fc.array(fc.oneof(line, fc.constant('{"x":"é😀"}')), { minLength: 1, maxLength: 3 }),
      id: fc.option(fc.stringMatching(/^[a-z0-9]{1,6}$/), { nil: undefined }),
      eol: fc.constantFrom('\n', '\r\n', '\r'),
      comment: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 12 }), (events, points) => {
        const text = events
          .map((e) => (e.comment ? `: ping${e.eol}` : '') + (e.id ? `id: ${e.id}${e.eol}` : '') + e.data.map((d) => `data: ${d}${e.eol}`).join('') + e.eol)
          .join('');
        const bytes = enc.encode(text);
        expect(parseChunks(cut(bytes, points))).toEqual(parseChunks([bytes]));
        // and byte-by-byte, the worst case
        expect(parseChunks([...bytes].map((b) => Uint8Array.of(b)))).toEqual(parseChunks([bytes]));
      }),
    );
  });
});
