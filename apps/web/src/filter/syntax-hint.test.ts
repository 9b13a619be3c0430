import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFilter } from '@mcpscope/protocol';
import { syntaxHint } from './syntax-hint.js';

describe('syntaxHint', () => {
  it.each([
    ['latency > 10', 'latency>10'],
    ['latency >10', 'latency>10'],
    ['status : err', 'status:err'],
    ['status:err OR status:pending', 'status:err | status:pending'],
    ['tool:search and status:err', 'tool:search status:err'],
    ['!latency > 5', '!latency>5'],
  ])('%s → %s', (typed, meant) => {
    expect(syntaxHint(typed)?.fixed).toBe(meant);
    expect(parseFilter(meant).ok).toBe(true);
  });

  it('drops an "and" before closing the gap it leaves: one suggestion, not two', () => {
    expect(syntaxHint('latency and > latency')?.fixed).toBe('latency>latency');
  });

  it.each(['latency>10', 'status:err | status:pending', '"latency > 10"', 'weather > sunny', 'hello world'])('leaves %s alone', (typed) => {
    expect(syntaxHint(typed)).toBeUndefined();
  });

  it('never changes quoted text, and its suggestion is stable', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('latency', '>', '10', 'OR', 'and', 'status:err', '"a > b"', 'x'), { maxLength: 8 }), (words) => {
        const typed = words.join(' ');
        const hint = syntaxHint(typed);
        if (!hint) return;
        expect(hint.fixed.match(/"[^"]*"/g) ?? []).toEqual(typed.match(/"[^"]*"/g) ?? []);
        expect(syntaxHint(hint.fixed)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
