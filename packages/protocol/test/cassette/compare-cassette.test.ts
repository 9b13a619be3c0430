// Comparing a re-run answer with the captured one, and building the script of a capture:
// statuses, shapes, first differing paths, server traffic inside a call, and bad input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCassette, compareOutcomes, firstDifference, outcomeOf, parseIgnore, type Frame, type JsonObject } from '../../src/index.js';
import { frameMaker } from '../support/frames.js';

const ok = (result: JsonObject, id: string | number = 1) => outcomeOf({ jsonrpc: '2.0', id, result });

describe('compareOutcomes', () => {
  it('same answers are the same, whatever the id, member order or volatile parts', () => {
    const before = ok({ content: [{ type: 'text', text: 'at 2026-01-01T00:00:00Z' }], structuredContent: { a: 1, b: 2 } }, 4);
    const after = ok({ structuredContent: { b: 2, a: 1 }, content: [{ text: 'at 2027-05-05T12:30:00Z', type: 'text' }] }, 'verify-4');
    expect(compareOutcomes(before, after)).toEqual({ verdict: 'same' });
  });

  it('a renamed field is a shape regression at the path of the field', () => {
    const r = compareOutcomes(ok({ structuredContent: { temperature: 21, city: 'Lyon' } }), ok({ structuredContent: { temp: 21, city: 'Lyon' } }));
    expect(r).toEqual({ verdict: 'regressed', difference: { kind: 'shape', path: '$.result.structuredContent.temperature', before: '21', after: '(missing)' } });
  });

  it('a new field is an additive change, not a regression; --strict makes it one', () => {
    const before = ok({ structuredContent: { city: 'Lyon' } });
    const after = ok({ structuredContent: { city: 'Lyon', humidity: 40 } });
    const added = { kind: 'shape', path: '$.result.structuredContent.humidity', before: '(missing)', after: '40' };
    expect(compareOutcomes(before, after)).toEqual({ verdict: 'changed', difference: added });
    expect(compareOutcomes(before, after, { strict: true })).toEqual({ verdict: 'regressed', difference: added });
  });

  it('a new field beside a real difference is a regression at the real difference', () => {
    const r = compareOutcomes(ok({ a: 1, b: 'x' }), ok({ a: 1, extra: true, b: 'y' }));
    expect(r).toEqual({ verdict: 'regressed', difference: { kind: 'content', path: '$.result.b', before: '"x"', after: '"y"' } });
    expect(compareOutcomes(ok({ a: 1, b: 'x' }), ok({ extra: true, b: 'x' })).verdict).toBe('regressed');
  });

  it('a changed value is a content regression; a shape change elsewhere wins over it', () => {
    expect(compareOutcomes(ok({ a: 1, b: { c: 'x' } }), ok({ a: 2, b: { c: 'x' } })).difference).toMatchObject({ kind: 'content', path: '$.result.a' });
    expect(compareOutcomes(ok({ a: 1, b: { c: 'x' } }), ok({ a: 2, b: { c: 3 } })).difference).toMatchObject({ kind: 'shape', path: '$.result.b.c' });
  });

  it('tells statuses apart: an error that became ok is fixed, anything else that moved regressed', () => {
    const err = outcomeOf({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } });
    const biz = ok({ content: [], isError: true });
    const down = outcomeOf(undefined, 'ECONNREFUSED');
    expect([err.status, biz.status, down.status]).toEqual(['protocol_error', 'business_error', 'transport_error']);
    expect(compareOutcomes(err, ok({})).verdict).toBe('fixed');
    expect(compareOutcomes(ok({}), biz)).toEqual({ verdict: 'regressed', difference: { kind: 'status', before: 'ok', after: 'business_error' } });
    expect(compareOutcomes(biz, err).verdict).toBe('regressed');
    expect(compareOutcomes(down, outcomeOf(undefined, 'ECONNRESET')).verdict).toBe('same');
  });

  it('--expect ok: only an ok answer passes', () => {
    const err = outcomeOf({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } });
    expect(compareOutcomes(err, ok({ x: 1 }), { expectOk: true }).verdict).toBe('fixed');
    expect(compareOutcomes(err, err, { expectOk: true }).verdict).toBe('failing');
    expect(compareOutcomes(ok({ x: 1 }), ok({ x: 2 }), { expectOk: true }).verdict).toBe('regressed');
  });

  it('--ignore takes a path out of the comparison', () => {
    const ignore = parseIgnore(['$.result.content[*].text']);
    if (!ignore.ok) throw new Error(ignore.message);
    const a = ok({ content: [{ type: 'text', text: 'random 17' }] });
    const b = ok({ content: [{ type: 'text', text: 'random 4' }] });
    expect(compareOutcomes(a, b).verdict).toBe('regressed');
    expect(compareOutcomes(a, b, { ignore: ignore.patterns }).verdict).toBe('same');
  });

  it('finds a difference exactly when the values differ (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), (a, b) => {
        const same = JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
        expect(firstDifference(a, b) === undefined).toBe(same);
        expect(firstDifference(a, a)).toBeUndefined();
      }),
    );
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, x]) => [k, sortKeys(x)]));
  return v;
}

describe('buildCassette', () => {
  const http = (connectionId: string, extra = {}) => ({ http: { method: 'POST', path: '/mcp', connectionId, ...extra } });

  it('keeps what the server sent inside a call, timed from its request, with the client\'s replies', () => {
    const f = frameMaker('sess');
    const frames: Frame[] = [
      f('c2s', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'c', version: '1' } } }, http('h1')),
      f('s2c', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }, { transport: 'sse', ...http('h1', { status: 200, responseHeaders: { 'mcp-session-id': 'sess' } }) }),
      f('c2s', { jsonrpc: '2.0', method: 'notifications/initialized' }, http('h2')),
      f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: {}, _meta: { progressToken: 2 } } }, http('h3')),
      f('s2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 1 } }, { transport: 'sse', ...http('h3') }),
      f('s2c', { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } }, { transport: 'sse', ...http('h3') }),
      f('c2s', { jsonrpc: '2.0', id: 1, result: { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } } }, http('h4')),
      f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } }, { transport: 'sse', ...http('h3') }),
    ];
    const cassette = buildCassette(frames);
    expect(cassette.problems).toEqual([]);
    expect(cassette.paths).toEqual(['/mcp']);
    const [session] = cassette.sessions;
    expect(session).toMatchObject({ sessionKey: 'sess', era: 'legacy', protocolVersion: '2025-11-25', statefulServer: true, clientCapabilities: { sampling: {} } });
    expect(session!.steps.map((s) => (s.kind === 'call' ? s.call.method : s.notification.method))).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    const call = cassette.calls[1]!;
    expect(call).toMatchObject({ method: 'tools/call', target: 'ask', status: 'ok', stream: true, answerOffsetMs: 40 });
    expect(call.events).toEqual([
      { kind: 'notification', offsetMs: 10, message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 2, progress: 1 } } },
      { kind: 'request', offsetMs: 20, method: 'sampling/createMessage', message: expect.objectContaining({ id: 1 }), reply: { offsetMs: 30, message: expect.objectContaining({ id: 1, result: expect.any(Object) }) } },
    ]);
  });

  it('reports half an exchange, an orphan answer, junk and an unknown revision, and keeps the rest', () => {
    const f = frameMaker('s9');
    const frames: Frame[] = [
      f('c2s', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'c' } } }),
      f('s2c', { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2099-01-01', capabilities: {}, serverInfo: { name: 's' } } }),
      f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      f('s2c', { jsonrpc: '2.0', id: 2, result: { tools: [] } }),
      f('c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow' } }),
      f('s2c', { jsonrpc: '2.0', id: 77, result: {} }),
      f('c2s', 'not json at all'),
    ];
    const cassette = buildCassette(frames);
    expect(cassette.calls.map((c) => c.method)).toEqual(['initialize', 'tools/list', 'tools/call']);
    const messages = cassette.problems.map((p) => `${p.where}: ${p.message}`).join('\n');
    expect(messages).toMatch(/exchange 5: tools\/call "slow" \(id 3\) has no answer in the capture/);
    expect(messages).toMatch(/answer \(id 77\) whose request is not in the capture/);
    expect(messages).toMatch(/frame 7: not a JSON-RPC message/);
    expect(messages).toMatch(/session s9: negotiated protocol revision "2099-01-01"/);
  });

  it('says so when there is nothing to use', () => {
    expect(buildCassette([]).problems).toEqual([{ where: 'capture', message: 'the capture holds no frames' }]);
  });

  it('leaves out what mcpscope replayed itself', () => {
    const f = frameMaker('s1', 'replay');
    const cassette = buildCassette([f('c2s', { jsonrpc: '2.0', id: 'mcpscope-replay-1', method: 'ping' }), f('s2c', { jsonrpc: '2.0', id: 'mcpscope-replay-1', result: {} })]);
    expect(cassette.calls).toEqual([]);
    expect(cassette.replaysLeftOut).toBe(1);
  });
});
