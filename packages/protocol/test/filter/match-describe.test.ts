// What a filter selects, and the sentence that says so.
import { describe, expect, it } from 'vitest';
import {
  describeFilter,
  matchesExchange,
  parseFilter,
  type ExchangeSummary,
  type FilterContext,
  type SessionSummary,
} from '../../src/index.js';

function ex(over: Partial<ExchangeSummary>): ExchangeSummary {
  return {
    id: over.id ?? '1',
    sessionKey: 'sess-abc123',
    requester: 'client',
    direction: 'c2s',
    kind: 'request',
    method: 'tools/call',
    target: 'get_weather',
    rpcId: 1,
    status: 'ok',
    startTs: 0,
    endTs: 120,
    latencyMs: 120,
    frameSeqs: [1, 2],
    size: 2000,
    diagnostics: 0,
    updatedSeq: 2,
    ...over,
  };
}

const session: SessionSummary = {
  sessionKey: 'sess-abc123',
  transport: 'sse',
  protocolVersion: '2025-06-18',
  clientInfo: { name: 'claude-ai', version: '1.0' },
  clientLabel: 'Claude Desktop 1.0',
  userAgent: 'node-fetch',
  firstTs: 0,
  lastTs: 0,
  counts: {},
};

function matches(text: string, row: ExchangeSummary, ctx?: FilterContext): boolean {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(r.error.message);
  return matchesExchange(r.filter, row, ctx);
}

const call = ex({});
const ping = ex({ id: '2', method: 'ping', target: undefined, rpcId: '7', latencyMs: 3, size: 80 });
const failed = ex({ id: '3', status: 'protocol_error', errorCode: -32602, diagnostics: 2 });
const business = ex({ id: '4', status: 'business_error', target: 'book_flight' });
const note = ex({ id: '5', kind: 'notification', requester: 'none', direction: 's2c', method: 'notifications/tools/list_changed', target: undefined, rpcId: undefined, latencyMs: undefined });
const serverAsks = ex({ id: '6', requester: 'server', direction: 's2c', method: 'sampling/createMessage', target: undefined, status: 'pending', latencyMs: undefined });
const rows = [call, ping, failed, business, note, serverAsks];

function ids(text: string, ctx?: FilterContext): string[] {
  return rows.filter((r) => matches(text, r, ctx)).map((r) => r.id);
}

describe('matchesExchange', () => {
  it('matches everything with the empty filter', () => {
    expect(ids('')).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('matches methods exactly or by prefix with *', () => {
    expect(ids('method:tools/call')).toEqual(['1', '3', '4']);
    expect(ids('method:tools')).toEqual([]);
    expect(ids('method:notifications/*')).toEqual(['5']);
    expect(ids('method:*/createMessage')).toEqual(['6']);
  });

  it('matches the tool of a tools/call', () => {
    expect(ids('tool:book_flight')).toEqual(['4']);
    expect(ids('tool:get_*')).toEqual(['1', '3']);
  });

  it('keeps the JSON type of ids apart', () => {
    expect(ids('id:7')).toEqual([]);
    expect(ids('id:"7"')).toEqual(['2']);
    expect(ids('id:1')).toEqual(['1', '3', '4', '6']);
    expect(ids('id:"1"')).toEqual([]);
  });

  it('reads dir: as who sent the request or notification', () => {
    expect(ids('dir:s2c')).toEqual(['5', '6']);
    expect(ids('dir:c2s')).toEqual(['1', '2', '3', '4']);
  });

  it('matches status, the err alias, kind and code', () => {
    expect(ids('status:err')).toEqual(['3', '4']);
    expect(ids('status:pending')).toEqual(['6']);
    expect(ids('kind:notification')).toEqual(['5']);
    expect(ids('code:-32602')).toEqual(['3']);
  });

  it('compares latency and size, with unit suffixes', () => {
    expect(ids('latency>100')).toEqual(['1', '3', '4']);
    expect(ids('latency<10')).toEqual(['2']);
    expect(ids('latency>0.1s')).toEqual(['1', '3', '4']);
    expect(ids('size>1kb')).toEqual(['1', '3', '4', '5', '6']);
    expect(ids('size<100')).toEqual(['2']);
    expect(matches('size>1mb', ex({ size: 2 * 1024 * 1024 }))).toBe(true);
  });

  it('matches sessions by key prefix, clients by name and revisions via the session', () => {
    expect(ids('session:sess-abc')).toHaveLength(6);
    expect(ids('session:abc')).toEqual([]);
    expect(ids('client:claude', { session })).toHaveLength(6);
    expect(ids('client:NODE-FETCH', { session })).toHaveLength(6);
    expect(ids('client:cursor', { session })).toEqual([]);
    expect(ids('client:claude')).toEqual([]);
    expect(ids('rev:2025-06-18', { session })).toHaveLength(6);
    expect(ids('rev:2025-03-26', { session })).toEqual([]);
  });

  it('matches conversations exactly: through the session, or the exchange\'s own for session-less rows', () => {
    const inConv = { session: { ...session, conversationKey: 'c12' } };
    expect(ids('conversation:c12', inConv)).toHaveLength(6);
    expect(ids('conversation:c1', inConv)).toEqual([]);
    expect(ids('conversation:c12')).toEqual([]);
    // A session-less exchange carries the conversation it joined, whatever its made-up session says.
    expect(matches('conversation:c7', ex({ conversation: 'c7' }), inConv)).toBe(true);
    expect(matches('conversation:c12', ex({ conversation: 'c7' }), inConv)).toBe(false);
    const parsed = parseFilter('conversation:c12');
    expect(parsed.ok && parsed.filter && describeFilter(parsed.filter)).toContain('conversation c12');
  });

  it('matches diagnostics by presence and by code', () => {
    expect(ids('has:diag')).toEqual(['3']);
    expect(matches('diag:phantom-tool', failed, { diagnosticCodes: ['phantom-tool'] })).toBe(true);
    expect(matches('diag:phantom-*', failed, { diagnosticCodes: ['phantom-tool'] })).toBe(true);
    expect(matches('diag:phantom-tool', failed, { diagnosticCodes: ['params-invalid'] })).toBe(false);
  });

  it('searches free text in method, target and (lazily) the bodies, any case', () => {
    expect(ids('WEATHER')).toEqual(['1', '3']);
    let reads = 0;
    const ctx = { bodyText: () => (reads++, '{"arguments":{"city":"Paris"}}') };
    expect(matches('paris', ping, ctx)).toBe(true);
    expect(matches('tools', call, ctx)).toBe(true);
    expect(reads).toBe(1); // the method matched first: the body was never read for `call`
  });

  it('combines with !, &, juxtaposition, | and parentheses', () => {
    expect(ids('method:tools/call !status:ok')).toEqual(['3', '4']);
    expect(ids('method:tools/call & !status:ok')).toEqual(['3', '4']);
    expect(ids('kind:notification | status:pending')).toEqual(['5', '6']);
    expect(ids('!(method:tools/call | method:ping)')).toEqual(['5', '6']);
    expect(ids('(tool:get_weather | id:"7") latency<200')).toEqual(['1', '2', '3']);
  });
});

describe('describeFilter', () => {
  function sentence(text: string): string {
    const r = parseFilter(text);
    if (!r.ok) throw new Error(r.error.message);
    return describeFilter(r.filter);
  }

  it('says what a filter means in words', () => {
    expect(sentence('')).toBe('Every exchange (the filter is empty).');
    expect(sentence('method:tools/* latency>500')).toBe('Exchanges where the method starts with tools/ and it took longer than 500 ms.');
    expect(sentence('status:err | size>10kb')).toBe(
      'Exchanges where it failed (protocol, business or transport error, invalid, or an answer hosts reject) or its bodies are larger than 10 KB (10,240 bytes).',
    );
    expect(sentence('id:"7" !dir:c2s')).toBe('Exchanges where the JSON-RPC id is the string "7" and not (the client sent it).');
    expect(sentence('!(tool:search | "rate limit")')).toBe(
      'Exchanges where not (it calls the tool search or the method, target or a body contains "rate limit").',
    );
  });
});
