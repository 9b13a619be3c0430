// Server-side filtering of door records must answer exactly what the dashboard's door matcher
// would: the SQL pushdown (capture/door-filter-sql.ts) may only narrow. Property: for any filter
// built from the language's operators, GET /api/requests' page equals "every record, oldest first,
// kept by compileDoorFilter", in one page or in many small hurried ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileDoorFilter, parseFilter, type DoorRecord } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';

let store: CaptureStore;
let records: DoorRecord[];

/** A deterministic mix: methods, paths, statuses (and none), probes, sessions, bodies, sizes. */
function traffic(): DoorRecord[] {
  const paths = ['/mcp', '/mcp?x=1', '/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server', '/token', '/favicon.ico', '/Mcp', '/'];
  const methods = ['GET', 'POST', 'HEAD', 'OPTIONS', 'DELETE', 'get'];
  const statuses = [200, 202, 204, 302, 401, 404, 405, 502, undefined];
  const agents = ['openai-mcp/1.0.0', 'node', 'Googlebot/2.1', 'Claude-User'];
  const out: DoorRecord[] = [];
  for (let i = 1; i <= 120; i++) {
    const path = paths[i % paths.length]!;
    const record: DoorRecord = {
      id: i,
      rev: i,
      ts: 1000 + i * 7,
      method: methods[i % methods.length]!,
      path,
      host: '127.0.0.1:7788',
      answer: i % 17 === 0 ? 'refused' : 'upstream',
      end: i % 13 === 0 ? 'client-gone' : 'complete',
      requestHeaders: { 'user-agent': agents[i % agents.length]!, ...(i % 3 === 0 ? { accept: 'text/html' } : {}) },
      responseHeaders: {},
      requestBytes: (i * 37) % 300,
      responseBytes: (i * 53) % 400,
      peer: { address: '127.0.0.1', connection: i % 5 },
      userAgent: agents[i % agents.length]!,
    };
    const status = statuses[i % statuses.length];
    if (status !== undefined) record.status = status;
    if (i % 4 !== 0) record.endMs = (i * 3) % 50;
    if (path.startsWith('/mcp')) record.mcp = true;
    if (i % 6 === 0) record.sessionKey = i % 12 === 0 ? 'sess-a' : 'client:node';
    if (path === '/token') record.responseBody = { text: (i >> 3) % 2 ? '{"error":"invalid_grant"}' : '{"access_token":"[redacted] (9 chars)"}', size: 30, truncated: false };
    out.push(record);
  }
  return out;
}

beforeAll(() => {
  store = new CaptureStore(':memory:');
  records = traffic();
  store.write({ frames: [], exchanges: [], sessions: [], diagnostics: [], conversations: [], requests: records });
});
afterAll(() => store.close());

function expected(text: string): number[] {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`test filter does not parse: ${text}`);
  const keep = compileDoorFilter(parsed.filter);
  return records.filter(keep).map((r) => r.id);
}

function served(text: string, pageSize: number, scanTimeMs?: number): number[] {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`test filter does not parse: ${text}`);
  const ids: number[] = [];
  let after = 0;
  for (let i = 0; i < 10_000; i++) {
    const page = store.door.page(parsed.filter, after, pageSize, scanTimeMs);
    ids.push(...page.requests.map((r) => r.id));
    if (page.nextAfter === undefined) return ids;
    after = page.nextAfter;
  }
  throw new Error('paging did not end');
}

const ATOMS = [
  'http.method:GET', 'http.method:post', 'http.method:OPTIONS', 'http.path:/mcp', 'http.path:/.well-known/*', 'http.path:*.ico', 'http.path:/M*',
  'http.status:200', 'http.status:4xx', 'http.status:none', 'http.status>399', 'http.status<300', 'http.status>4xx', 'http.status>404', 'http.status<404', 'kind:http', 'kind:probe',
  'kind:request', 'session:sess', 'session:client:', 'client:openai', 'client:BOT', 'latency>20', 'latency<5', 'latency>0.01s', 'size>300', 'size<100', 'size>0.2kb',
  'invalid_grant', '"/token"', 'method:tools/call', 'status:err', 'tool:x', 'id:1',
];

const filterText: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie('f'), tie('f')).map(([a, b]) => `(${a} ${b})`),
    fc.tuple(tie('f'), tie('f')).map(([a, b]) => `(${a} | ${b})`),
    tie('f').map((a) => `!(${a})`),
  ),
})).f;

describe('door filter pushdown', () => {
  it('every atom alone matches what the matcher keeps', () => {
    for (const atom of ATOMS) expect(served(atom, 5000), atom).toEqual(expected(atom));
    // The capture exercises every door field; only the fields about exchanges keep nothing.
    expect(ATOMS.filter((a) => expected(a).length === 0)).toEqual(['kind:request', 'method:tools/call', 'status:err', 'tool:x', 'id:1']);
  });

  it('any combination gives the matcher\'s answer, in one page or many small hurried ones', () => {
    fc.assert(
      fc.property(filterText, fc.integer({ min: 1, max: 7 }), (text, pageSize) => {
        const want = expected(text);
        expect(served(text, 5000)).toEqual(want);
        expect(served(text, pageSize, 0)).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
});
