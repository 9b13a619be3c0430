// The one filter language on door records: the http.* fields, kind:http|probe, what the other
// fields mean for a request at the door, and the laws (not, and, or) on random records.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { compileDoorFilter, compileFilter, describeFilter, parseFilter, type DoorRecord, type ExchangeSummary } from '../../src/index.js';
import { door, resetDoorIds } from '../support/door.js';

beforeEach(() => resetDoorIds());

function matches(text: string, record: DoorRecord): boolean {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error.message}`);
  return compileDoorFilter(parsed.filter)(record);
}

describe('door filter fields', () => {
  const notFound = door({ path: '/favicon.ico?v=2', status: 404 });
  const token = door({ method: 'POST', path: '/token', status: 400, reply: { error: 'invalid_grant' }, endMs: 42, requestBytes: 100, responseBytes: 30 });
  const gone = door({ method: 'POST', path: '/mcp', mcp: true, status: undefined, end: 'client-gone', sessionKey: 'sess-9' });

  it('http.method, any case', () => {
    expect(matches('http.method:post', token)).toBe(true);
    expect(matches('http.method:GET', token)).toBe(false);
  });

  it('http.path globs the path without its query', () => {
    expect(matches('http.path:/favicon.ico', notFound)).toBe(true);
    expect(matches('http.path:/fav*', notFound)).toBe(true);
    expect(matches('http.path:/.well-known/*', notFound)).toBe(false);
  });

  it('http.status: exact, class, none, bounds', () => {
    expect(matches('http.status:404', notFound)).toBe(true);
    expect(matches('http.status:4xx', token)).toBe(true);
    expect(matches('http.status:5xx', token)).toBe(false);
    expect(matches('http.status:none', gone)).toBe(true);
    expect(matches('http.status>399', notFound)).toBe(true);
    expect(matches('http.status<4xx', notFound)).toBe(false);
    expect(matches('http.status>4xx', gone)).toBe(false);
  });

  it('kind:http is every door record, kind:probe only probes', () => {
    expect(matches('kind:http', gone)).toBe(true);
    expect(matches('kind:probe', notFound)).toBe(true);
    expect(matches('kind:probe', token)).toBe(false);
    expect(matches('kind:request', token)).toBe(false);
  });

  it('session, client, latency, size and free text mean what they say for a request', () => {
    expect(matches('session:sess-', gone)).toBe(true);
    expect(matches('client:NOD', token)).toBe(true);
    expect(matches('latency>40', token)).toBe(true);
    expect(matches('size>129', token)).toBe(true);
    expect(matches('size>130', token)).toBe(false);
    expect(matches('invalid_grant', token)).toBe(true);
    expect(matches('"/token"', token)).toBe(true);
  });

  it('fields about JSON-RPC never match a door record, and http fields never match an exchange', () => {
    expect(matches('method:tools/call', token)).toBe(false);
    expect(matches('status:err', token)).toBe(false);
    const ex: ExchangeSummary = { id: '1', sessionKey: 's', requester: 'client', kind: 'request', method: 'tools/call', status: 'ok', startTs: 0, frameSeqs: [1], size: 1, diagnostics: 0, updatedSeq: 1 };
    for (const text of ['kind:http', 'http.method:POST', 'http.path:*', 'http.status:200']) {
      const parsed = parseFilter(text);
      expect(parsed.ok && compileFilter(parsed.filter)(ex)).toBe(false);
    }
  });

  it('describes itself as a filter on HTTP requests', () => {
    const parsed = parseFilter('http.path:/.well-known/* http.status:4xx');
    expect(parsed.ok && describeFilter(parsed.filter, 'requests')).toBe('HTTP requests where the HTTP path starts with /.well-known/ and its HTTP status is a 4xx.');
  });

  it('refuses a malformed status with the value marked', () => {
    const parsed = parseFilter('http.status:abc');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatchObject({ position: 12, length: 3 });
  });
});

const ATOMS = ['http.method:GET', 'http.method:POST', 'http.path:/mcp', 'http.path:/.well-known/*', 'http.status:200', 'http.status:4xx', 'http.status:none', 'http.status>299', 'kind:http', 'kind:probe', 'session:s', 'client:open', 'latency>10', 'size<100', 'token', 'tool:x'];

const recordArb = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS'),
    path: fc.constantFrom('/mcp', '/token', '/.well-known/oauth-protected-resource', '/favicon.ico', '/'),
    status: fc.option(fc.constantFrom(200, 204, 401, 404, 502), { nil: undefined }),
    ua: fc.constantFrom('openai-mcp/1.0.0', 'node', 'Googlebot'),
    endMs: fc.integer({ min: 0, max: 30 }),
    bytes: fc.integer({ min: 0, max: 200 }),
    session: fc.option(fc.constantFrom('s1', 'x2'), { nil: undefined }),
  })
  .map((r) => {
    const record = door({ method: r.method, path: r.path, status: r.status, userAgent: r.ua, requestHeaders: { 'user-agent': r.ua, accept: 'text/html' }, endMs: r.endMs, requestBytes: r.bytes });
    if (r.session) record.sessionKey = r.session;
    return record;
  });

const filterArb = fc.letrec<{ f: string }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie('f'), tie('f')).map(([a, b]) => `(${a} ${b})`),
    fc.tuple(tie('f'), tie('f')).map(([a, b]) => `(${a} | ${b})`),
    tie('f').map((a) => `!(${a})`),
  ),
})).f;

describe('door filter laws', () => {
  it('not, and, or compose as booleans on any record', () => {
    fc.assert(
      fc.property(filterArb, filterArb, recordArb, (a, b, r) => {
        expect(matches(`!(${a})`, r)).toBe(!matches(a, r));
        expect(matches(`(${a}) (${b})`, r)).toBe(matches(a, r) && matches(b, r));
        expect(matches(`(${a}) | (${b})`, r)).toBe(matches(a, r) || matches(b, r));
      }),
      { numRuns: 300 },
    );
  });
});
