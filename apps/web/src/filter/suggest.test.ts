import { describe, expect, it } from 'vitest';
import { suggest, toggleTerm, tokenAt } from './suggest.js';
import { FILTER_OPERATORS } from './filter-lang.js';

const ops = [
  { syntax: 'method:NAME', field: 'method' as const, help: 'method', example: 'method:tools/call' },
  { syntax: 'status:STATUS', field: 'status' as const, help: 'status', example: 'status:err', values: ['ok', 'pending', 'err'] },
  { syntax: 'latency>MS', field: 'latency' as const, help: 'slow', example: 'latency>500' },
];
const captured = { method: ['tools/call', 'tools/list', 'initialize'], tool: ['suggest_gifts'], session: ['abc123'], client: ['ChatGPT'] };

describe('filter autocomplete', () => {
  it('finds the token under the caret between operators', () => {
    expect(tokenAt('status:err | meth', 17)).toEqual({ start: 13, end: 17, token: 'meth' });
    expect(tokenAt('!(tool:x)', 7)).toEqual({ start: 2, end: 8, token: 'tool:x' });
  });

  it('offers operators while a field name is typed', () => {
    expect(suggest('me', 2, ops, captured).map((s) => s.insert)).toEqual(['method:']);
    expect(suggest('lat', 3, ops, captured).map((s) => s.insert)).toEqual(['latency>']);
  });

  it('offers captured and registry values once the field is known', () => {
    expect(suggest('method:tools', 12, ops, captured).map((s) => s.insert)).toEqual(['method:tools/call', 'method:tools/list']);
    expect(suggest('x status:', 9, ops, captured).map((s) => s.insert)).toEqual(['status:ok', 'status:pending', 'status:err']);
  });

  it('completes dotted fields (http.status:, http.method:) from the registry itself', () => {
    const all = FILTER_OPERATORS;
    expect(suggest('http.st', 7, all, captured).map((s) => s.insert)).toEqual(['http.status:', 'http.status>']);
    expect(suggest('http.method:P', 13, all, captured).map((s) => s.insert)).toEqual(['http.method:POST', 'http.method:PUT', 'http.method:PATCH']);
    expect(suggest('kind:p', 6, all, captured).map((s) => s.insert)).toEqual(['kind:probe']);
  });

  it('offers both forms of an operator whose syntax names two, and completes the exact session= with captured keys', () => {
    const all = FILTER_OPERATORS;
    expect(suggest('sess', 4, all, captured).map((s) => s.insert)).toEqual(['session:', 'session=']);
    expect(suggest('session=a', 9, all, captured)).toEqual([{ insert: 'session=abc123', label: 'session=abc123' }]);
    expect(suggest('(session=', 9, all, { ...captured, session: ['abc123', 'abd456'] }).map((s) => s.insert)).toEqual(['session=abc123', 'session=abd456']);
  });

  it('toggles chip terms in and out of the filter text', () => {
    expect(toggleTerm('method:tools/call', 'status:err')).toBe('method:tools/call status:err');
    expect(toggleTerm('method:tools/call status:err', 'status:err')).toBe('method:tools/call');
  });
});
