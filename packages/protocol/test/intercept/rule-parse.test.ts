// The rule grammar: what parses to what, where errors point, and print → parse round trips.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAUSE_DEADLINE_MS, parseRule, printRule, type InterceptRule, type RuleAction, type RuleCount } from '../../src/index.js';
import { filterArb } from '../support/filter-arb.js';

function rule(text: string): InterceptRule {
  const r = parseRule(text);
  if (!r.ok) throw new Error(`expected ${text} to parse: ${r.error.message} at ${r.error.position}`);
  return r.rule;
}

function errorOf(text: string) {
  const r = parseRule(text);
  if (r.ok) throw new Error(`expected ${text} to fail`);
  return r.error;
}

const toolsCall = { type: 'field', field: 'method', op: ':', value: 'tools/call' } as const;

describe('parseRule', () => {
  it('reads each action with its arguments', () => {
    expect(rule('method:tools/call => pause').action).toEqual({ type: 'pause', on: 'request', deadlineMs: DEFAULT_PAUSE_DEADLINE_MS });
    expect(rule('method:tools/call => pause response for 5s').action).toEqual({ type: 'pause', on: 'response', deadlineMs: 5000 });
    expect(rule('tool:slow => delay 90s').action).toEqual({ type: 'delay', ms: 90_000 });
    expect(rule('tool:x => error -32602 "bad arguments"').action).toEqual({ type: 'error', code: -32602, message: 'bad arguments' });
    expect(rule('tool:x => is-error "quota exceeded"').action).toEqual({ type: 'is-error', text: 'quota exceeded' });
    expect(rule('tool:x => replace {"content":[{"type":"text","text":"a b"}]}').action).toEqual({ type: 'replace', result: { content: [{ type: 'text', text: 'a b' }] } });
    expect(rule('tool:x => inflate 2mb').action).toEqual({ type: 'inflate', bytes: 2 * 1024 * 1024 });
    expect(rule('tool:x => drop').action).toEqual({ type: 'drop' });
    expect(rule('tool:x => http 401 www-authenticate="Bearer realm=\\"mcp\\""').action).toEqual({ type: 'http', status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' } });
    expect(rule('tool:x => http 429 Retry-After=5').action).toEqual({ type: 'http', status: 429, headers: { 'retry-after': '5' } });
    expect(rule('tool:x => cut-stream after 2 events').action).toEqual({ type: 'cut-stream', afterEvents: 2 });
    expect(rule('tool:x => notify notifications/tools/list_changed').action).toEqual({ type: 'notify', method: 'notifications/tools/list_changed' });
  });

  it('reads the filter with the timeline language, and the count', () => {
    expect(rule('method:tools/call => drop')).toEqual({ filter: toolsCall, action: { type: 'drop' }, count: { type: 'always' } });
    expect(rule('method:tools/call => drop once').count).toEqual({ type: 'times', n: 1 });
    expect(rule('method:tools/call => drop 3 times').count).toEqual({ type: 'times', n: 3 });
    expect(rule('method:tools/call => error 1 "x" 25%').count).toEqual({ type: 'percent', p: 25 });
    expect(rule('(tool:a | tool:b) !session:s1 => delay 1s always').filter.type).toBe('and');
    expect(rule('tool:a=>b => drop').filter).toEqual({ type: 'field', field: 'tool', op: ':', value: 'a=>b' });
  });

  it('points at the culprit with a message that says what to write', () => {
    expect(errorOf('method:tools/call delay 5s')).toMatchObject({ position: 0, message: expect.stringContaining('=>') });
    expect(errorOf(' => drop')).toMatchObject({ position: 1, message: expect.stringContaining('needs a filter') });
    expect(errorOf('bogus:1 => drop')).toMatchObject({ position: 0, message: expect.stringContaining('Unknown field "bogus"') });
    expect(errorOf('tool:x => explode')).toMatchObject({ position: 10, length: 7, message: expect.stringContaining('Unknown action "explode"') });
    expect(errorOf('tool:x => delay soon')).toMatchObject({ position: 16, length: 4, message: expect.stringContaining('not a duration') });
    expect(errorOf('tool:x => delay')).toMatchObject({ position: 15, message: expect.stringContaining('A duration') });
    expect(errorOf('tool:x => error abc')).toMatchObject({ position: 16, message: expect.stringContaining('not an error code') });
    expect(errorOf('tool:x => http 700')).toMatchObject({ position: 15, message: expect.stringContaining('between 100 and 599') });
    expect(errorOf('tool:x => replace [1]')).toMatchObject({ position: 18, message: expect.stringContaining('JSON object') });
    expect(errorOf('tool:x => replace {"a":')).toMatchObject({ position: 18, message: expect.stringContaining('never closed') });
    expect(errorOf('tool:x => drop twice')).toMatchObject({ position: 15, length: 5, message: expect.stringContaining('not a count') });
    expect(errorOf('tool:x => drop 3')).toMatchObject({ position: 15, message: expect.stringContaining('3 times') });
    expect(errorOf('tool:x => drop 0%')).toMatchObject({ position: 15, message: expect.stringContaining('between 1% and 100%') });
    expect(errorOf('tool:x => drop once now')).toMatchObject({ position: 20, message: expect.stringContaining('Unexpected "now"') });
    expect(errorOf('tool:x => delay 2h')).toMatchObject({ position: 16 });
  });

  it('never throws, and every error points inside the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map((s) => `tool:x => ${s}`), fc.string().map((s) => `${s} => drop`)), (text) => {
        const r = parseRule(text);
        if (!r.ok) {
          expect(r.error.position).toBeGreaterThanOrEqual(0);
          expect(r.error.position).toBeLessThanOrEqual(text.length);
          expect(r.error.message.length).toBeGreaterThan(0);
        }
      }),
    );
  });
});

const text = fc.string({ maxLength: 20 });
const ms = fc.integer({ min: 0, max: 600_000 });
const actionArb: fc.Arbitrary<RuleAction> = fc.oneof(
  fc.record({ type: fc.constant('pause' as const), on: fc.constantFrom('request' as const, 'response' as const), deadlineMs: fc.oneof(ms, fc.constant(DEFAULT_PAUSE_DEADLINE_MS)) }),
  fc.record({ type: fc.constant('delay' as const), ms }),
  fc.record({ type: fc.constant('error' as const), code: fc.integer({ min: -99999, max: 99999 }), message: text }),
  fc.record({ type: fc.constant('is-error' as const), text }),
  fc.record({ type: fc.constant('replace' as const), result: fc.dictionary(fc.string(), fc.jsonValue()).map((o) => JSON.parse(JSON.stringify(o))) }),
  fc.record({ type: fc.constant('inflate' as const), bytes: fc.oneof(fc.nat({ max: 256 * 1024 * 1024 }), fc.nat({ max: 200 }).map((n) => n * 1024), fc.nat({ max: 200 }).map((n) => n * 1024 * 1024)) }),
  fc.constant({ type: 'drop' as const }),
  fc.record({
    type: fc.constant('http' as const),
    status: fc.integer({ min: 100, max: 599 }),
    headers: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), text, { maxKeys: 3 }),
  }),
  fc.record({ type: fc.constant('cut-stream' as const), afterEvents: fc.nat({ max: 1000 }) }),
  fc.record({ type: fc.constant('notify' as const), method: fc.string({ minLength: 1, maxLength: 30 }) }),
);
const countArb: fc.Arbitrary<RuleCount> = fc.oneof(
  fc.constant({ type: 'always' as const }),
  fc.record({ type: fc.constant('times' as const), n: fc.integer({ min: 1, max: 1000 }) }),
  fc.record({ type: fc.constant('percent' as const), p: fc.integer({ min: 1, max: 100 }) }),
);

/** A filter word beginning with => would be read as the arrow; such a word must be quoted (parse-time rule). */
const startsWithArrow = (f: unknown): boolean => JSON.stringify(f).includes('"value":"=>');

describe('printRule', () => {
  it('prints every rule so that it parses back to itself', () => {
    fc.assert(
      fc.property(filterArb.filter((f) => !startsWithArrow(f)), actionArb, countArb, (filter, action, count) => {
        const original: InterceptRule = { filter, action, count };
        const printed = printRule(original);
        const back = parseRule(printed);
        if (!back.ok) throw new Error(`${printed} did not parse: ${back.error.message} at ${back.error.position}`);
        expect(back.rule).toEqual(original);
      }),
      { numRuns: 500 },
    );
  });
});
