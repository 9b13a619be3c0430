// The filter grammar: what parses to what, where errors point, and parse → print → parse stability.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS, compileFilter, parseFilter, printFilter, type ExchangeSummary, type Filter } from '../../src/index.js';
import { filterArb } from '../support/filter-arb.js';

function parsed(text: string): Filter | null {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(`expected ${text} to parse: ${r.error.message}`);
  return r.filter;
}

function errorOf(text: string): { message: string; position: number; length: number } {
  const r = parseFilter(text);
  if (r.ok) throw new Error(`expected ${text} to fail`);
  return r.error;
}

describe('parseFilter', () => {
  it('reads an empty or blank filter as null (everything)', () => {
    expect(parsed('')).toBeNull();
    expect(parsed('   \t')).toBeNull();
  });

  it('reads fields, free text and quoted strings', () => {
    expect(parsed('method:tools/call')).toEqual({ type: 'field', field: 'method', op: ':', value: 'tools/call' });
    expect(parsed('latency>500')).toEqual({ type: 'field', field: 'latency', op: '>', value: '500' });
    expect(parsed('client:"Claude Desktop"')).toEqual({ type: 'field', field: 'client', op: ':', value: 'Claude Desktop' });
    expect(parsed('weather')).toEqual({ type: 'text', value: 'weather' });
    expect(parsed('"rate limit"')).toEqual({ type: 'text', value: 'rate limit' });
    expect(parsed('"say \\"hi\\""')).toEqual({ type: 'text', value: 'say "hi"' });
  });

  it('reads session= as the whole key, and name=value of any other name as free text', () => {
    expect(parsed('session=abc')).toEqual({ type: 'field', field: 'session', op: '=', value: 'abc' });
    expect(parsed('session="a b"')).toEqual({ type: 'field', field: 'session', op: '=', value: 'a b' });
    expect(parsed('city=Paris')).toEqual({ type: 'text', value: 'city=Paris' });
    expect(parsed('method=x')).toEqual({ type: 'text', value: 'method=x' });
    const keys = ['abc', 'abcd'].map((sessionKey) => ({ sessionKey }) as ExchangeSummary);
    expect(keys.filter((ex) => compileFilter(parsed('session=abc')!)(ex)).map((ex) => ex.sessionKey)).toEqual(['abc']);
    expect(keys.filter((ex) => compileFilter(parsed('session:abc')!)(ex)).map((ex) => ex.sessionKey)).toEqual(['abc', 'abcd']);
  });

  it('keeps the JSON type of an id', () => {
    expect(parsed('id:7')).toEqual({ type: 'field', field: 'id', op: ':', value: '7' });
    expect(parsed('id:"7"')).toEqual({ type: 'field', field: 'id', op: ':', value: '"7"' });
    expect(parsed('id:abc')).toEqual({ type: 'field', field: 'id', op: ':', value: '"abc"' });
  });

  it('normalises enum values and field names to lower case', () => {
    expect(parsed('Status:ERR')).toEqual({ type: 'field', field: 'status', op: ':', value: 'err' });
    expect(parsed('size>10KB')).toEqual({ type: 'field', field: 'size', op: '>', value: '10kb' });
  });

  it('binds ! tightest, then and (space or &), then |', () => {
    expect(parsed('!a b | c & d')).toEqual({
      type: 'or',
      items: [
        { type: 'and', items: [{ type: 'not', item: { type: 'text', value: 'a' } }, { type: 'text', value: 'b' }] },
        { type: 'and', items: [{ type: 'text', value: 'c' }, { type: 'text', value: 'd' }] },
      ],
    });
    expect(parsed('!(a | b)')).toEqual({
      type: 'not',
      item: { type: 'or', items: [{ type: 'text', value: 'a' }, { type: 'text', value: 'b' }] },
    });
  });

  it('treats ! inside a word as a character', () => {
    expect(parsed('hello!')).toEqual({ type: 'text', value: 'hello!' });
  });

  it.each([
    ['method:tools/call |', 'missing after |', 18, 1],
    ['(method:ping', 'never closed', 0, 1],
    ['method:ping)', 'no matching (', 11, 1],
    ['"abc', 'never closed', 0, 4],
    ['a & | b', 'missing after &', 2, 1],
    ['()', 'Empty parentheses', 0, 2],
    ['!', 'missing after !', 0, 1],
    ['| a', 'on its left', 0, 1],
    ['dir:up', 'Bad dir value', 4, 2],
    ['latency:5', 'latency>', 7, 1],
    ['method>x', 'method:', 6, 1],
    ['size>lots', 'Bad size value', 5, 4],
    ['code:abc', 'integer', 5, 3],
    ['method:', 'needs a value', 0, 7],
  ])('%j fails with "%s" at %i (+%i)', (text, message, position, length) => {
    const err = errorOf(text);
    expect(err.message).toContain(message);
    expect([err.position, err.length]).toEqual([position, length]);
  });

  it('lists the known fields when a field name is unknown', () => {
    const err = errorOf('status:ok metod:ping');
    expect(err).toMatchObject({ position: 10, length: 5 });
    for (const field of ['method', 'tool', 'latency', 'diag']) expect(err.message).toContain(field);
  });

  it('refuses absurd nesting with an error instead of overflowing the stack', () => {
    const deep = '('.repeat(5000) + 'a' + ')'.repeat(5000);
    expect(parseFilter(deep).ok).toBe(false);
    expect(parseFilter('!'.repeat(5000) + 'a').ok).toBe(false);
  });

  it('accepts every example in the operator registry', () => {
    for (const op of FILTER_OPERATORS) expect(parseFilter(op.example).ok, op.example).toBe(true);
  });
});

// ---- properties ----

/** The language's own alphabet, so random text hits the interesting paths. */
const junk = fc.oneof(
  fc.string(),
  fc.array(fc.constantFrom('(', ')', '!', '|', '&', '"', '\\', ' ', 'a', 'method:', 'id:', 'latency>', '5', 'x:', ':', '*'), { maxLength: 30 }).map((parts) => parts.join('')),
);

describe('filter properties', () => {
  it('print → parse gives back the same filter', () => {
    fc.assert(
      fc.property(filterArb, (f) => {
        const r = parseFilter(printFilter(f));
        expect(r).toEqual({ ok: true, filter: f });
      }),
      { numRuns: 500 },
    );
  });

  it('parse → print → parse is stable for any text that parses', () => {
    fc.assert(
      fc.property(junk, (text) => {
        const first = parseFilter(text);
        if (!first.ok || first.filter === null) return;
        expect(parseFilter(printFilter(first.filter))).toEqual(first);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on junk, and errors point inside the text', () => {
    fc.assert(
      fc.property(junk, (text) => {
        const r = parseFilter(text);
        if (r.ok) return;
        expect(r.error.position).toBeGreaterThanOrEqual(0);
        expect(r.error.position).toBeLessThan(text.length);
        expect(r.error.length).toBeGreaterThanOrEqual(1);
        expect(r.error.position + r.error.length).toBeLessThanOrEqual(text.length);
        expect(r.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 3000 },
    );
  });
});
