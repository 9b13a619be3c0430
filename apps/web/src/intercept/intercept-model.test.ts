import { describe, expect, it } from 'vitest';
import type { InterceptResponse, Intervention, RuleView } from '@mcpscope/protocol';
import { FAST_POLL_MS, formatCountdown, IDLE_POLL_MS, interventionsOf, pollInterval, reactionLines, ruleRows } from './intercept-model.js';

const rule = (id: string, action: string, enabled = true, hits = 0): RuleView => ({ id, text: `method:tools/call => ${action}`, enabled, hits, action });
const intervention = (id: number, ruleId: string, action: string, requestSeq: number, deliveredSeq = -1): Intervention => ({
  id, ts: 0, ruleId, ruleText: '', action, sessionKey: 's', requestSeq, deliveredSeq, note: '',
});
const state = (rules: RuleView[], held = 0): InterceptResponse => ({
  live: true,
  rules,
  held: Array.from({ length: held }, (_, i) => ({ id: i, ruleId: 'r', ruleText: '', direction: 's2c', raw: '{}', sessionKey: 's', since: 0, deadline: 1 })),
  interventions: [],
});

describe('formatCountdown', () => {
  it('rounds up to whole seconds, switches to m:ss past a minute, and never goes below zero', () => {
    expect(formatCountdown(19_001)).toBe('20s');
    expect(formatCountdown(20_000)).toBe('20s');
    expect(formatCountdown(1)).toBe('1s');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(600_000)).toBe('10:00');
    expect(formatCountdown(-3000)).toBe('0s');
  });
});

describe('pollInterval', () => {
  it('polls fast while the panel is open, a frame is held or an enabled pause rule exists, slowly otherwise', () => {
    expect(pollInterval(undefined, false)).toBe(FAST_POLL_MS);
    expect(pollInterval(state([rule('a', 'delay')]), true)).toBe(FAST_POLL_MS);
    expect(pollInterval(state([rule('a', 'delay')], 1), false)).toBe(FAST_POLL_MS);
    expect(pollInterval(state([rule('a', 'pause')]), false)).toBe(FAST_POLL_MS);
    expect(pollInterval(state([rule('a', 'pause', false), rule('b', 'delay')]), false)).toBe(IDLE_POLL_MS);
  });
});

describe('ruleRows', () => {
  it("keeps the rules' order and says what each did, by action, from its own interventions", () => {
    const rows = ruleRows([rule('a', 'pause', true, 3), rule('b', 'error', false, 0)], [intervention(1, 'a', 'pause', 4), intervention(2, 'a', 'pause', 9), intervention(3, 'a', 'drop', 12), intervention(4, 'z', 'error', 1)]);
    expect(rows.map((r) => [r.rule.id, r.hits, r.did])).toEqual([
      ['a', 3, '2 pause, 1 drop'],
      ['b', 0, ''],
    ]);
  });
});

describe('interventionsOf', () => {
  it("finds an exchange's interventions by its request frame or by the frame delivered in its place", () => {
    const all = [intervention(1, 'a', 'pause', 4, 7), intervention(2, 'a', 'error', 10, 11), intervention(3, 'a', 'drop', 20)];
    expect(interventionsOf({ sessionKey: 's', frameSeqs: [4, 7] }, all).map((i) => i.id)).toEqual([1]);
    expect(interventionsOf({ sessionKey: 's', frameSeqs: [11] }, all).map((i) => i.id)).toEqual([2]);
    expect(interventionsOf({ sessionKey: 's', frameSeqs: [5, 6] }, all)).toEqual([]);
  });
});

describe('reactionLines', () => {
  it('says "watching" while the watch runs, "nothing" when it ended with nothing, and each thing the client did', () => {
    expect(reactionLines(undefined)).toEqual(['watching…']);
    expect(reactionLines({ events: [], final: true })).toEqual(['nothing']);
    expect(reactionLines({ events: [{ kind: 'retried', afterMs: 1500, count: 2 }, { kind: 'cancelled', afterMs: 40, count: 1 }], final: false })).toEqual(['retried the same call 2× after 1.5s', 'cancelled after 40ms']);
  });
});
