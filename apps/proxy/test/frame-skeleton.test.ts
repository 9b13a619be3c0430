/**
 * A large frame is derived from its skeleton (long strings cut). Whatever the body, the skeleton
 * reads as the same JSON-RPC message (kind, id, method, the same keys everywhere) and never turns
 * a body that is not JSON into one that is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyText, type Message } from '@mcpscope/protocol';
import { frameSkeleton } from '../src/capture/frame-skeleton.js';

const KEEP = 8;

/** JSON values whose strings are often longer than KEEP, escapes and non-ASCII included. */
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, tie('str'), fc.integer(), fc.boolean(), fc.constant(null), tie('arr'), tie('obj')),
  str: fc.string({ unit: fc.oneof(fc.constantFrom('a', '"', '\\', '\n', '\u2028', 'é', '😀', '/', '\u0001'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 40 }),
  arr: fc.array(tie('any'), { maxLength: 4 }),
  obj: fc.dictionary(tie('str') as fc.Arbitrary<string>, tie('any'), { maxKeys: 4 }),
}));

const message = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })), result: value.any });

/** The shape of a parsed value: keys and types, with strings reduced to their kind. */
function shape(v: unknown): unknown {
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return v.map(shape);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return v;
}

function summary(m: Message): unknown {
  if (m.kind === 'invalid') return { kind: 'invalid' };
  if (m.kind === 'batch') return { kind: 'batch', items: m.items.map(summary) };
  return { kind: m.kind, id: 'id' in m ? m.id : undefined, method: 'method' in m ? m.method : undefined, shape: shape(m) };
}

describe('frame skeleton', () => {
  it('reads as the same message as the whole body, with every value string at most KEEP characters plus an escape', () => {
    fc.assert(
      fc.property(message, (m) => {
        const raw = JSON.stringify(m);
        const skeleton = frameSkeleton(raw, KEEP);
        if (skeleton === undefined) return;
        expect(summary(classifyText(skeleton))).toEqual(summary(classifyText(raw)));
        const parsed: unknown = JSON.parse(skeleton);
        const strings: string[] = [];
        JSON.stringify(parsed, (_k, v: unknown) => {
          if (typeof v === 'string') strings.push(v);
          return v;
        });
        for (const s of strings) expect(JSON.stringify(s).length).toBeLessThanOrEqual(2 * KEEP + 8);
      }),
      { numRuns: 500 },
    );
  });

  it('never makes a body that is not JSON parse', () => {
    const text = fc.string({ unit: fc.constantFrom('"', '\\', 'u', '0', 'a', '{', '}', ':', ',', '[', ']', '\u0001', 'n', ' '), maxLength: 60 });
    fc.assert(
      fc.property(text, (raw) => {
        const skeleton = frameSkeleton(raw, KEEP);
        if (skeleton === undefined) return;
        const parses = (t: string) => {
          try {
            JSON.parse(t);
            return true;
          } catch {
            return false;
          }
        };
        if (!parses(raw)) expect(parses(skeleton)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('cuts a 50 MB tool result to a few kilobytes and leaves a body with no long string alone', () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'x'.repeat(50 * 1024 * 1024) }] } });
    const skeleton = frameSkeleton(big)!;
    expect(skeleton.length).toBeLessThan(2048);
    expect(classifyText(skeleton)).toMatchObject({ kind: 'response', id: 7, result: { content: [{ type: 'text' }] } });
    expect(frameSkeleton('{"jsonrpc":"2.0","id":1,"result":{}}')).toBeUndefined();
  });
});
