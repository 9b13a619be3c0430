import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExchangeTracker, type ExchangeSummary, type Frame } from '../src/index.js';
import { MAX_IN_FLIGHT } from '../src/pairing/exchange-tracker.js';

let seq = 0;
function frame(direction: Frame['direction'], body: unknown, extra: Partial<Frame> = {}): Frame {
  seq++;
  return { seq, ts: seq, sessionKey: 's1', direction, transport: 'sse', kind: 'data', raw: typeof body === 'string' ? body : JSON.stringify(body), ...extra };
}

function run(frames: Frame[]): Map<string, ExchangeSummary> {
  const t = new ExchangeTracker();
  const rows = new Map<string, ExchangeSummary>();
  for (const f of frames) for (const ex of t.ingest(f)) rows.set(ex.id, ex);
  return rows;
}

describe('ExchangeTracker', () => {
  it('pairs by (session, requester side, id): a server request reusing id 1 is its own exchange', () => {
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask' } }),
      frame('s2c', { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} }),
      frame('c2s', { jsonrpc: '2.0', id: 1, result: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } }),
      frame('s2c', { jsonrpc: '2.0', id: 1, result: { content: [] } }),
    ]);
    const list = [...rows.values()];
    expect(list).toHaveLength(2);
    expect(list.find((r) => r.method === 'tools/call')).toMatchObject({ requester: 'client', status: 'ok', target: 'ask' });
    expect(list.find((r) => r.method === 'sampling/createMessage')).toMatchObject({ requester: 'server', status: 'ok' });
  });

  it('sizes an exchange in the bytes that went over the wire: UTF-8, and a cut body whole', () => {
    const bytes = (f: Frame) => new TextEncoder().encode(f.raw).length;
    const call = frame('c2s', { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'gift', arguments: { note: '誕生日おめでとう 🎁' } } });
    const answer = frame('s2c', { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'Café ☕' }] } });
    const [row] = [...run([call, answer]).values()];
    expect(row!.size).toBe(bytes(call) + bytes(answer));
    expect(row!.size).toBeGreaterThan(call.raw.length + answer.raw.length);
    // A body the tap kept only the start of is as large as the tap forwarded.
    const cut = frame('s2c', '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"', { http: { method: 'POST', path: '/mcp', status: 200, cut: { size: 5_000_000 } } });
    expect([...run([cut]).values()].map((r) => r.size)).toEqual([5_000_000]);
  });

  it('keeps 1 and "1" apart, and id 0 is a real id', () => {
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 0, method: 'ping' }),
      frame('c2s', { jsonrpc: '2.0', id: '1', method: 'ping' }),
      frame('s2c', { jsonrpc: '2.0', id: 1, result: {} }),
      frame('s2c', { jsonrpc: '2.0', id: 0, result: {} }),
    ]);
    const statuses = [...rows.values()].map((r) => [r.rpcId, r.status]);
    expect(statuses).toContainEqual([0, 'ok']);
    expect(statuses).toContainEqual(['1', 'pending']);
    expect(statuses).toContainEqual([1, 'orphan']);
  });

  it('tells protocol errors from business errors', () => {
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } }),
      frame('s2c', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad args' } }),
      frame('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'a' } }),
      frame('s2c', { jsonrpc: '2.0', id: 2, result: { isError: true, content: [{ type: 'text', text: 'over budget' }] } }),
    ]);
    expect(rows.get(String(seq - 3))).toMatchObject({ status: 'protocol_error', errorCode: -32602 });
    expect(rows.get(String(seq - 1))).toMatchObject({ status: 'business_error', errorMessage: 'over budget' });
  });

  it('attaches progress by token and cancellation by requestId', () => {
    const first = seq + 1;
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 'tok' } } }),
      frame('s2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: 1 } }),
      frame('c2s', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user' } }),
    ]);
    expect(rows.size).toBe(1);
    expect(rows.get(String(first))).toMatchObject({ status: 'cancelled', frameSeqs: [first, first + 1, first + 2] });
  });

  it('notes when each progress notification came, after the request, for the waterfall', () => {
    const first = seq + 1;
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 9 } } }, { ts: 1000 }),
      frame('s2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9, progress: 1 } }, { ts: 1250 }),
      frame('s2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9, progress: 2 } }, { ts: 1700 }),
      frame('s2c', { jsonrpc: '2.0', id: 8, result: { content: [] } }, { ts: 2000 }),
    ]);
    expect(rows.get(String(first))).toMatchObject({ status: 'ok', progressAt: [250, 700], latencyMs: 1000 });
  });

  it('pairs a response that was captured before its request', () => {
    const rows = run([frame('s2c', { jsonrpc: '2.0', id: 9, result: {} }), frame('c2s', { jsonrpc: '2.0', id: 9, method: 'ping' })]);
    expect([...rows.values()]).toEqual([expect.objectContaining({ status: 'ok', method: 'ping' })]);
  });

  it('turns a transport failure into a transport_error on the exchange of that connection', () => {
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { http: { method: 'POST', path: '/mcp', connectionId: 'h1' } }),
      frame('s2c', '{"event":"upstream-error","message":"ECONNREFUSED"}', { kind: 'transport', http: { method: 'POST', path: '/mcp', connectionId: 'h1', status: 502 } }),
    ]);
    expect([...rows.values()]).toEqual([expect.objectContaining({ status: 'transport_error', errorMessage: 'ECONNREFUSED', transportEvent: 'upstream-error' })]);
  });

  it('says which event ended a row, and only events mcpscope writes', () => {
    const http = (connectionId: string) => ({ method: 'POST', path: '/mcp', connectionId });
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } }, { http: http('h1') }),
      frame('s2c', '{"event":"redirected","message":"the server answered 307"}', { kind: 'transport', http: { ...http('h1'), status: 307 } }),
      frame('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'a' } }, { http: http('h2') }),
      frame('s2c', '{"event":"made-up","message":"from a HAR"}', { kind: 'transport', http: http('h2') }),
    ]);
    expect([...rows.values()].map((r) => [r.rpcId, r.status, r.transportEvent])).toEqual([
      [1, 'transport_error', 'redirected'],
      [2, 'transport_error', undefined],
    ]);
  });

  it('pairs junk with the server\'s id-null error on the same connection: one row, not two', () => {
    const http = { method: 'POST', path: '/mcp', connectionId: 'h7' };
    const rows = run([
      frame('c2s', 'GARBAGE <not json>', { http }),
      frame('s2c', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }, { http: { ...http, status: 400 } }),
    ]);
    expect([...rows.values()]).toEqual([expect.objectContaining({ status: 'invalid', kind: 'invalid', errorCode: -32700, frameSeqs: [seq - 1, seq] })]);
  });

  it('a body cut short by a broken connection is a transport error, with the bytes received kept', () => {
    const http = { method: 'POST', path: '/mcp', connectionId: 'h9' };
    const rows = run([
      frame('c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'big' } }, { http }),
      frame('s2c', '{"jsonrpc":"2.0","id":3,"result":{"content":[{"ty', { http: { ...http, status: 200 } }),
      frame('s2c', '{"event":"stream-error","message":"the response body broke: ECONNRESET"}', { kind: 'transport', http: { ...http, status: 200 } }),
    ]);
    expect([...rows.values()]).toEqual([expect.objectContaining({ status: 'transport_error', errorMessage: expect.stringContaining('ECONNRESET'), frameSeqs: [seq - 2, seq - 1, seq] })]);
  });

  it('pairs the same way however frames of different sessions interleave', () => {
    const session = (key: string) =>
      [1, 2, 3].flatMap((id) => [
        { sessionKey: key, direction: 'c2s' as const, body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: `t${id}` } } },
        { sessionKey: key, direction: 's2c' as const, body: id === 2 ? { jsonrpc: '2.0', id, error: { code: -1, message: 'x' } } : { jsonrpc: '2.0', id, result: {} } },
      ]);
    const a = session('A');
    const b = session('B');
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: a.length + b.length, maxLength: a.length + b.length }), (picks) => {
        const qa = [...a];
        const qb = [...b];
        const order = picks.map((pickA) => ((pickA && qa.length) || !qb.length ? qa.shift()! : qb.shift()!));
        const t = new ExchangeTracker();
        const final = new Map<string, string>();
        order.forEach((f, i) => {
          for (const ex of t.ingest({ seq: i + 1, ts: i, sessionKey: f.sessionKey, direction: f.direction, transport: 'sse', kind: 'data', raw: JSON.stringify(f.body) })) {
            final.set(`${ex.sessionKey}/${ex.target}`, ex.status);
          }
        });
        expect(Object.fromEntries(final)).toEqual({ 'A/t1': 'ok', 'A/t2': 'protocol_error', 'A/t3': 'ok', 'B/t1': 'ok', 'B/t2': 'protocol_error', 'B/t3': 'ok' });
        expect(t.pendingCount).toBe(0);
      }),
    );
  });

  it(`follows at most ${MAX_IN_FLIGHT} unanswered requests: the oldest is let go, and its very late answer is an orphan`, () => {
    const t = new ExchangeTracker();
    const first = t.ingest(frame('c2s', { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'slow' } }))[0]!;
    for (let id = 1; id <= MAX_IN_FLIGHT; id++) t.ingest(frame('c2s', { jsonrpc: '2.0', id, method: 'ping' }));
    expect(t.takeEvicted()).toEqual([first.id]);
    expect(t.snapshot().open.length).toBe(MAX_IN_FLIGHT);
    expect(t.pendingRequest('s1', 'client', 0)).toBeUndefined();
    // The newest ones still pair.
    expect(t.ingest(frame('s2c', { jsonrpc: '2.0', id: MAX_IN_FLIGHT, result: {} }))[0]).toMatchObject({ method: 'ping', status: 'ok' });
    expect(t.ingest(frame('s2c', { jsonrpc: '2.0', id: 0, result: { content: [] } }))[0]).toMatchObject({ status: 'orphan' });
  });
});
