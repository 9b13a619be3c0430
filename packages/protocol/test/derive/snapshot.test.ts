// A capture that reopens continues exactly: a deriver restored from a snapshot (taken at any frame,
// passed through JSON as the store keeps it) derives from the next frame on exactly what a deriver
// that never stopped derives. And what a deriver holds stays bounded by what is in flight.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, DERIVER_STATE_VERSION, type Frame } from '../../src/index.js';
import { createValidator } from '../../src/validate/index.js';
import { frameMaker } from '../support/frames.js';

const validator = createValidator();
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '2' } };
const tool = fc.constantFrom('suggest_gifts', 'wrap_gift', 'ghost');
const id = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('1', 'a'));
const params = fc.record(
  {
    name: tool,
    arguments: fc.oneof(fc.constant({}), fc.record({ budget: fc.integer({ min: -5, max: 100 }) }), fc.constant({ budget: 'lots' })),
    _meta: fc.oneof(
      fc.record({ progressToken: fc.constantFrom('p1', 7) }),
      fc.constant(modernMeta),
      // ChatGPT's hints: the host's conversation id moves sessions between conversations.
      fc.record({ 'openai/session': fc.constantFrom('conv-1', 'conv-2'), 'openai/locale': fc.constantFrom('en-US', 'fr-FR') }),
    ),
    requestState: fc.constantFrom('st-1', 'st-2'),
  },
  { requiredKeys: ['name'] },
);
const toolsList = {
  tools: [
    { name: 'suggest_gifts', inputSchema: { type: 'object', properties: { budget: { type: 'number' } }, required: ['budget'] }, outputSchema: { type: 'object', properties: { ideas: { type: 'array' } }, required: ['ideas'] } },
    { name: 'wrap_gift', inputSchema: { type: 'object' } },
  ],
};
const result = fc.oneof(
  fc.constant({ content: [{ type: 'text', text: 'ok' }] }),
  fc.constant({ content: [{ type: 'text', text: 'no' }], isError: true }),
  fc.constant({ content: [], structuredContent: { ideas: ['scarf'] } }),
  fc.constant({ content: [], structuredContent: { ideas: 'scarf' } }),
  fc.constant({ resultType: 'input_required', requestState: 'st-1', inputRequests: {} }),
  fc.constant(toolsList),
  fc.constant({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } }),
);
const single = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id, method: fc.constant('tools/call'), params }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, method: fc.constantFrom('tools/list', 'ping', 'resources/read', 'sampling/createMessage', 'server/discover') }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, method: fc.constant('initialize'), params: fc.constant({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Claude', version: '1' } }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, result }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(id, fc.constant(null)), error: fc.record({ code: fc.constantFrom(-32602, -32601, 42), message: fc.constant('nope') }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/progress'), params: fc.record({ progressToken: fc.constantFrom('p1', 7), progress: fc.nat(5) }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/cancelled'), params: fc.record({ requestId: id, reason: fc.constant('user') }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constantFrom('notifications/initialized', 'notifications/tools/list_changed') }),
);
const body = fc.oneof(
  { weight: 8, arbitrary: single.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(single, { minLength: 1, maxLength: 3 }).map((items) => JSON.stringify(items)) },
  { weight: 1, arbitrary: fc.constantFrom('not json at all', '{"jsonrpc":"2.0"}', '[]', '{"jsonrpc":"2.0","id":1,"result":{}') },
);
type Step = { kind: Frame['kind']; direction: Frame['direction']; session: string; raw: string; conn?: string; status?: number; ua?: string; credential?: string };
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record(
      {
        kind: fc.constant('data' as const),
        direction: fc.constantFrom('c2s' as const, 's2c' as const),
        // `client:…` is a session the tap made up for session-less traffic: it joins conversations exchange by exchange.
        session: fc.constantFrom('s1', 's2', 's3', 'client:openai-mcp/1.0'),
        raw: body,
        conn: fc.constantFrom('h1', 'h2', 'h3'),
        status: fc.constantFrom(200, 500, 400, 404),
        ua: fc.constantFrom('openai-mcp/1.0', 'curl/8'),
        credential: fc.constantFrom('fp-a', 'fp-b'),
      },
      { requiredKeys: ['kind', 'direction', 'session', 'raw'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('transport' as const),
      direction: fc.constant('s2c' as const),
      session: fc.constantFrom('s1', 's2'),
      raw: fc.constantFrom('{"event":"upstream-error","message":"ECONNRESET"}', '{"event":"client-disconnected","message":"gone"}'),
      conn: fc.constantFrom('h1', 'h2', 'h3'),
    }),
  },
);

/** A call and its answer on the same connection: makes pairing, MRTR chains and tool checks common. */
const call: fc.Arbitrary<Step[]> = fc
  .record({ id, params, result, session: fc.constantFrom('s1', 's2'), conn: fc.constantFrom('h1', 'h2', 'h3') })
  .map(({ id: rpcId, params: p, result: r, session, conn }) => [
    { kind: 'data', direction: 'c2s', session, conn, raw: JSON.stringify({ jsonrpc: '2.0', id: rpcId, method: 'tools/call', params: p }) },
    { kind: 'data', direction: 's2c', session, conn, raw: JSON.stringify({ jsonrpc: '2.0', id: rpcId, result: r }) },
  ]);
/** A call that asks for input, and retries that ask again (answered later, or never): multi-round chains in flight. */
const rounds: fc.Arbitrary<Step[]> = fc.record({ ids: fc.array(id, { minLength: 2, maxLength: 4 }), name: tool }).map(({ ids, name }) =>
  ids.flatMap((rpcId, round) => {
    const request = { jsonrpc: '2.0', id: rpcId, method: 'tools/call', params: round === 0 ? { name } : { name, requestState: 'st-1' } };
    const ask = { jsonrpc: '2.0', id: rpcId, result: { resultType: 'input_required', requestState: 'st-1' } };
    const frames: Step[] = [{ kind: 'data', direction: 'c2s', session: 's1', raw: JSON.stringify(request) }];
    if (round < ids.length - 1) frames.push({ kind: 'data', direction: 's2c', session: 's1', raw: JSON.stringify(ask) });
    return frames;
  }),
);
const traffic = fc
  .array(fc.oneof({ weight: 6, arbitrary: step.map((s) => [s]) }, { weight: 2, arbitrary: call }, { weight: 1, arbitrary: rounds }), { minLength: 1, maxLength: 40 })
  .map((chunks) => chunks.flat());

function frames(steps: Step[]): Frame[] {
  return steps.map((s, i) => ({
    seq: i + 1,
    // Now and then a long pause, so that "the same client, close in time" sometimes does not hold.
    ts: 1000 + i * 7 + 11 * 60_000 * Math.floor(i / 11),
    sessionKey: s.session,
    direction: s.direction,
    transport: 'http-json',
    kind: s.kind,
    raw: s.raw,
    ...(s.conn
      ? { http: { method: 'POST', path: '/mcp', connectionId: s.conn, ...(s.status ? { status: s.status } : {}), ...(s.ua ? { requestHeaders: { 'user-agent': s.ua } } : {}), ...(s.credential ? { credential: s.credential } : {}) } }
      : {}),
  }));
}

describe('deriver snapshots', () => {
  it('snapshot at any frame, restore, continue: the same exchanges, sessions, conversations and diagnostics as never stopping', () => {
    fc.assert(
      fc.property(traffic, fc.nat(), (steps, at) => {
        const all = frames(steps);
        const cut = at % (all.length + 1);
        const whole = new CaptureDeriver({ validator });
        // Conversations are taken per frame here (per batch in the proxy), so they are compared too.
        const expected = all.map((f) => json({ ...whole.ingest(f), conversations: whole.takeConversations() }));

        const first = new CaptureDeriver({ validator });
        for (const f of all.slice(0, cut)) {
          first.ingest(f);
          first.takeConversations();
        }
        const stored = JSON.stringify(first.snapshot());
        const second = CaptureDeriver.restore(JSON.parse(stored), { validator });
        const continued = all.slice(cut).map((f) => json({ ...second.ingest(f), conversations: second.takeConversations() }));

        expect(continued).toEqual(expected.slice(cut));
        expect(json(second.snapshot())).toEqual(json(whole.snapshot()));
      }),
      { numRuns: 400 },
    );
  });

  it('a snapshot is independent of the deriver that made it', () => {
    const d = new CaptureDeriver({ validator });
    const f = frameMaker('s1');
    d.ingest(f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wrap_gift' } }));
    const before = JSON.stringify(d.snapshot());
    const snap = d.snapshot();
    d.ingest(f('s2c', { jsonrpc: '2.0', id: 1, result: { content: [] } }));
    expect(JSON.stringify(snap)).toBe(before);
  });

  it('refuses a snapshot of another version or shape, so the caller replays frames instead', () => {
    const state = new CaptureDeriver({ validator }).snapshot();
    expect(() => CaptureDeriver.restore({ ...state, version: DERIVER_STATE_VERSION + 1 })).toThrow(/version/);
    expect(() => CaptureDeriver.restore(null)).toThrow();
    expect(() => CaptureDeriver.restore({ ...state, exchanges: { ...state.exchanges, open: [['k', 3]] } })).toThrow(/row/);
  });

  it('holds only what is in flight: settled calls, answered cancels and old orphans are let go', () => {
    const d = new CaptureDeriver({ validator });
    const f = frameMaker('s1');
    for (let i = 0; i < 3000; i++) {
      d.ingest(f('c2s', { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'wrap_gift', arguments: { x: 1 } } }));
      if (i % 3 === 0) d.ingest(f('c2s', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: i } }));
      d.ingest(f('s2c', { jsonrpc: '2.0', id: i, result: { content: [] } }));
      d.ingest(f('s2c', { jsonrpc: '2.0', id: `orphan-${i}`, result: { content: [] } }));
    }
    d.ingest(f('c2s', { jsonrpc: '2.0', id: 'open', method: 'ping' }));
    const state = d.snapshot();
    expect(state.exchanges.open.map(([key]) => key)).toEqual([expect.stringContaining('open')]);
    expect(state.exchanges.orphans.length).toBeLessThanOrEqual(1024);
    expect(state.requests.length).toBe(1);
    expect(state.counts.length).toBeLessThanOrEqual(1024);
    expect(state.sessions.statusOf.length).toBeLessThanOrEqual(1025);
    expect(JSON.stringify(state).length).toBeLessThan(1_000_000);
  });
});
