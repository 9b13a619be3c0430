import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { SessionSummary } from '@mcpscope/protocol';
import { sessionChoices } from './session-choices.js';

const session = (key: string, firstTs: number): SessionSummary => ({ sessionKey: key, firstTs, lastTs: firstTs, transport: 'http-json', counts: {} }) as SessionSummary;

describe('the sessions a picker offers', () => {
  it('puts the chosen session and the value first, then the newest, up to the limit, and says how many more', () => {
    const held = new Map(Array.from({ length: 10 }, (_, i) => [`s${i}`, session(`s${i}`, i)] as const));
    const { sessions, more } = sessionChoices(held, ['s2', 's7', 's2', 'gone'], 5);
    expect(sessions.map((s) => s.sessionKey)).toEqual(['s2', 's7', 's9', 's8', 's6']);
    expect(more).toBe(5);
  });

  it('offers every held session once when they fit, each choice among them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 50 }), { maxLength: 30 }), fc.array(fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }), { maxLength: 3 }), fc.integer({ min: 0, max: 40 }), (starts, first, limit) => {
        const held = new Map<string, SessionSummary>(starts.map((t) => [`k${t}`, session(`k${t}`, t)]));
        const wanted = first.map((t): string | undefined => (t === undefined ? undefined : `k${t}`));
        const { sessions, more } = sessionChoices(held, wanted, limit);
        const keys = sessions.map((s) => s.sessionKey);
        expect(new Set(keys).size).toBe(keys.length);
        const present = [...new Set(wanted.filter((k): k is string => k !== undefined && held.has(k)))];
        expect(keys.slice(0, present.length)).toEqual(present);
        expect(keys.length).toBe(Math.max(present.length, Math.min(held.size, limit)));
        expect(keys.length + more).toBe(Math.max(held.size, present.length));
        const rest = sessions.slice(present.length).map((s) => s.firstTs);
        expect(rest).toEqual([...rest].sort((a, b) => b - a));
      }),
    );
  });
});
