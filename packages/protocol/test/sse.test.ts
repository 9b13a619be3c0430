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

describe('SseParser on long lines and events', () => {
  it('parses a 16 MB line fed in 1 KB chunks (the unfinished line is kept in pieces, not rebuilt per chunk)', () => {
    const payload = 'x'.repeat(16 * 1024 * 1024);
    const bytes = enc.encode(`id: big\ndata: ${payload}\n\n`);
    const p = new SseParser();
    const items: SseItem[] = [];
    for (let at = 0; at < bytes.length; at += 1024) items.push(...p.push(bytes.subarray(at, at + 1024)));
    items.push(...p.end());
    expect(items).toHaveLength(1);
    const event = items[0]!;
    expect(event.type === 'event' && event.data.length).toBe(payload.length);
    expect(event.type === 'event' && event.data === payload).toBe(true);
    expect(event.type === 'event' && event.truncated).toBeUndefined();
  });

  it('cuts an event at maxEventChars, flags it and counts its full size, for every chunking', () => {
    const max = 16;
    const event = fc.record({
      data: fc.array(fc.stringMatching(/^[^\r\n]{0,30}$/), { minLength: 1, maxLength: 4 }),
      eol: fc.constantFrom('\n', '\r\n', '\r'),
    });
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 10 }), (events, points) => {
        const text = events.map((e) => e.data.map((d) => `data: ${d}${e.eol}`).join('') + e.eol).join('');
        const bytes = enc.encode(text);
        const p = new SseParser({ maxEventChars: max });
        const capped = [...cut(bytes, points).flatMap((c) => p.push(c)), ...p.end()];
        const full = parseChunks([bytes]);
        expect(capped).toHaveLength(full.length);
        capped.forEach((item, i) => {
          const whole = full[i]!;
          if (item.type !== 'event' || whole.type !== 'event') throw new Error('events only');
          expect(item.data).toBe(whole.data.slice(0, max));
          if (whole.data.length > max) {
            expect(item.truncated).toBe(true);
            expect(item.size).toBe(whole.data.length);
          } else {
            expect(item.truncated).toBeUndefined();
          }
        });
      }),
    );
  });

  it('holds at most maxEventChars of one endless line', () => {
    const p = new SseParser({ maxEventChars: 1000 });
    p.push('data: ');
    for (let i = 0; i < 2000; i++) p.push('y'.repeat(4096));
    const [event] = p.push('\n\n');
    expect(event).toEqual({ type: 'event', data: 'y'.repeat(1000), hasData: true, truncated: true, size: 2000 * 4096 });
  });
});
