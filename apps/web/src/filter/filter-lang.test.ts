import { describe, expect, it } from 'vitest';
import { compileFilter, parseFilter, type ExchangeSummary, type SessionSummary } from '@mcpscope/protocol';
import { buildViewFilter, serverViewFilter } from './filter-lang.js';

const ex = (id: string, over: Partial<ExchangeSummary>): ExchangeSummary => ({
  id, sessionKey: 's1', requester: 'client', kind: 'request', method: 'tools/call', status: 'ok', startTs: 0, frameSeqs: [], size: 10, diagnostics: 0, updatedSeq: 1, ...over,
});
const rows = [
  ex('1', { target: 'suggest_gifts' }),
  ex('2', { status: 'protocol_error', errorCode: -32602 }),
  ex('3', { sessionKey: 's2', status: 'business_error', target: 'wrap_gift' }),
  ex('4', { method: 'tools/list', status: 'pending', sessionKey: 's2' }),
];
const sessions = new Map<string, SessionSummary>([
  ['s2', { sessionKey: 's2', transport: 'http-json', clientLabel: 'ChatGPT', firstTs: 0, lastTs: 0, counts: {} }],
]);
const ids = (text: string, session?: string) => rows.filter(buildViewFilter(text, session, (k) => sessions.get(k)).predicate).map((r) => r.id);

describe('view filter', () => {
  it('runs the shared filter language over summaries, with the session for client:', () => {
    expect(ids('status:err')).toEqual(['2', '3']);
    expect(ids('client:chatgpt')).toEqual(['3', '4']);
    expect(ids('tool:wrap_gift | status:pending')).toEqual(['3', '4']);
    expect(ids('')).toEqual(['1', '2', '3', '4']);
  });

  it('combines the sidebar session with the text', () => {
    expect(ids('', 's2')).toEqual(['3', '4']);
    expect(ids('status:err', 's2')).toEqual(['3']);
  });

  it('leaves free text and diag: to the capture, admitting only what it found', () => {
    const found = new Set(['1', '3']);
    const search = (text: string, session?: string) => buildViewFilter(text, session, (k) => sessions.get(k), found);
    expect(search('"hello from"').serverText).toBe('"hello from"');
    expect(rows.filter(search('"hello from"').predicate).map((r) => r.id)).toEqual(['1', '3']);
    expect(rows.filter(search('hello', 's2').predicate).map((r) => r.id)).toEqual(['3']);
    expect(search('status:err diag:phantom-tool').serverText).toBe('status:err diag:phantom-tool');
    expect(search('status:err').serverText).toBeUndefined();
  });

  it('keeps every row while the text does not parse, and says where it broke', () => {
    const result = buildViewFilter('status:err | (', undefined, () => undefined);
    expect(result.error?.position).toBeGreaterThan(10);
    expect(rows.filter(result.predicate)).toHaveLength(4);
    expect(buildViewFilter('status:pending', undefined, () => undefined).description).toMatch(/pending/);
  });

  it('asks the server for the same rows as the local view when one session key starts another', () => {
    const keyed = [ex('1', { sessionKey: 'abc' }), ex('2', { sessionKey: 'abcd' }), ex('3', { sessionKey: 'abc', status: 'protocol_error' }), ex('4', { sessionKey: 'ab c"' })];
    for (const [text, session] of [['', 'abc'], ['status:err', 'abc'], ['method:tools/call | status:err', 'abc'], ['', 'ab c"'], ['status:', 'abc']] as const) {
      const local = keyed.filter(buildViewFilter(text, session, () => undefined).predicate).map((r) => r.id);
      const parsed = parseFilter(serverViewFilter(text, session));
      if (!parsed.ok || !parsed.filter) throw new Error(`the server filter for ${text} / ${session} does not parse`);
      const server = keyed.filter((r) => compileFilter(parsed.filter!)(r)).map((r) => r.id);
      expect(server).toEqual(local);
    }
    expect(serverViewFilter('status:err', undefined)).toBe('status:err');
  });
});
