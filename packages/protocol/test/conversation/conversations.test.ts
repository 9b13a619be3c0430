// Conversations above sessions: ChatGPT's churn put back together by the host's own conversation
// id, what evidence joined what, churn counters, the era lane, and the lints that need a whole
// conversation. Frames are shaped as the tap records them (test/support/hosts.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, ownSessionKind, type ConversationSummary, type Diagnostic, type ExchangeSummary, type Frame, type SessionSummary } from '../../src/index.js';
import { createValidator } from '../../src/validate/index.js';
import { arrivedEarlier, chatgptCall, interleave, numbered, sdkSession, type Step } from '../support/hosts.js';

const validator = createValidator();

interface World {
  conversations: Map<string, ConversationSummary>;
  sessions: Map<string, SessionSummary>;
  exchanges: Map<string, ExchangeSummary>;
  diagnostics: Diagnostic[];
}

function derive(frames: Frame[]): World {
  const d = new CaptureDeriver({ validator });
  const w: World = { conversations: new Map(), sessions: new Map(), exchanges: new Map(), diagnostics: [] };
  for (const f of frames) {
    const out = d.ingest(f);
    for (const c of d.takeConversations()) w.conversations.set(c.key, c);
    for (const s of out.sessions) w.sessions.set(s.sessionKey, s);
    for (const e of out.exchanges) w.exchanges.set(e.id, e);
    w.diagnostics.push(...out.diagnostics);
  }
  return w;
}

/** Conversations that hold something (a session left one it started). */
const held = (w: World) => [...w.conversations.values()].filter((c) => Object.values(c.joinedBy).some((n) => (n ?? 0) > 0));
const chatgptSessions = (w: World) => [...w.sessions.values()].filter((s) => s.sessionKey.startsWith('chat'));

describe('a ChatGPT conversation of ten calls', () => {
  const steps = Array.from({ length: 10 }, (_, i) => chatgptCall(`chat-${i}`, { hostId: 'v1/conv-a', probe: true })).flat();
  const w = derive(numbered(steps));

  it('is one conversation of ten sessions, joined by openai/session', () => {
    const [conv, ...others] = held(w);
    expect(others).toEqual([]);
    expect(conv!.host).toBe('ChatGPT');
    expect(conv!.hostId).toBe('v1/conv-a');
    expect(conv!.churn.sessions).toBe(10);
    // Ten sessions by their own openai/session; the probes (no session of their own) joined by client and time.
    expect(conv!.joinedBy).toEqual({ host: 10, 'client-time': 10 });
    for (const s of chatgptSessions(w)) {
      expect(s.conversationKey).toBe(conv!.key);
      expect(s.joinedBy).toBe('host');
      expect(s.protocolVersion).toBe('2025-06-18');
    }
    // Probes live in the tap's made-up session, exchange by exchange.
    const probes = [...w.exchanges.values()].filter((e) => e.method === 'server/discover');
    expect(probes).toHaveLength(10);
    for (const p of probes) expect(p.conversation).toBe(conv!.key);
  });

  it('counts the churn: an initialize and a tools/list per call, every session used', () => {
    const { churn, counts } = held(w)[0]!;
    expect(churn).toMatchObject({ sessions: 10, initialize: 10, toolsList: 10, toolsCall: 10, unusedSessions: 0, staleSessionCalls: 0 });
    // 10 × (discover, initialize, initialized, tools/list, tools/call): the probes failed, the rest is ok.
    expect(counts).toEqual({ protocol_error: 10, ok: 40 });
  });

  it('records the hints the host sent, as the traffic carried them', () => {
    expect(held(w)[0]!.hints).toEqual({ 'openai/locale': 'en-US', 'openai/userAgent': 'Mozilla/5.0', 'openai/session': 'v1/conv-a', 'openai/subject': 'v1/subject' });
  });

  it('draws the era lane: each probe refused, each initialize a fallback to 2025-06-18', () => {
    const { era } = held(w)[0]!;
    expect(era).toMatchObject({ agreed: '2025-06-18', probes: 10, failedProbes: 10, fallbacks: 10, mismatches: 0 });
    expect(era.steps).toEqual([
      expect.objectContaining({ kind: 'discover', requested: '2026-07-28', outcome: 'failed', answer: 'HTTP 400 · -32000 Bad Request: No valid session ID provided', count: 10 }),
      expect.objectContaining({ kind: 'initialize', requested: '2025-06-18', outcome: 'ok', answer: '2025-06-18', fallback: true, count: 10 }),
    ]);
    expect(era.recent.length).toBeLessThanOrEqual(24);
    expect(era.recent.every((e) => e.outcome !== 'pending')).toBe(true);
  });

  it('says once that the client probes in a loop, and once that it re-lists before every call', () => {
    const codes = w.diagnostics.map((d) => d.code);
    expect(codes.filter((c) => c === 'discover-probe-loop')).toHaveLength(1);
    expect(codes.filter((c) => c === 'tools-relisted-every-call')).toHaveLength(1);
    const loop = w.diagnostics.find((d) => d.code === 'discover-probe-loop')!;
    // On the third probe, after two that fell back.
    expect(w.exchanges.get(loop.exchangeId!)!.method).toBe('server/discover');
    expect(loop.message).toMatch(/probed with server\/discover 2 times/);
  });
});

describe('membership', () => {
  it('two ChatGPT conversations in parallel stay apart, however their frames interleave and whenever their initializes arrived', () => {
    const a = Array.from({ length: 4 }, (_, i) => chatgptCall(`chat-a${i}`, { hostId: 'A' })).flat();
    const b = Array.from({ length: 3 }, (_, i) => chatgptCall(`chat-b${i}`, { hostId: 'B' })).flat();
    fc.assert(
      fc.property(fc.array(fc.nat(1), { minLength: a.length + b.length, maxLength: a.length + b.length }), fc.array(fc.nat(3), { minLength: 7, maxLength: 7 }), (picks, lags) => {
        const w = derive(arrivedEarlier(numbered(interleave([a, b], picks)), lags));
        const byHost = new Map(held(w).map((c) => [c.hostId, c]));
        expect(byHost.get('A')?.churn).toMatchObject({ sessions: 4, toolsCall: 4, initialize: 4 });
        expect(byHost.get('B')?.churn).toMatchObject({ sessions: 3, toolsCall: 3, initialize: 3 });
        for (const s of chatgptSessions(w)) expect(s.conversationKey).toBe(byHost.get(s.sessionKey.includes('-a') ? 'A' : 'B')!.key);
        // Every exchange is counted once, in its session's conversation.
        const total = (c: ConversationSummary) => Object.values(c.counts).reduce((n, x) => n + (x ?? 0), 0);
        expect(total(byHost.get('A')!)).toBe(16);
        expect(total(byHost.get('B')!)).toBe(12);
        // A session that started in the other conversation took its initialize with it.
        expect(byHost.get('A')!.era.steps.reduce((n, s) => n + s.count, 0)).toBe(4);
        expect(byHost.get('B')!.era.steps.reduce((n, s) => n + s.count, 0)).toBe(3);
      }),
      { numRuns: 100 },
    );
  });

  it('an SDK client with one long session is one conversation of one session', () => {
    const w = derive(numbered([...sdkSession('sdk-1', 'my-agent', 8), ...chatgptCall('chat-0', { hostId: 'X' })]));
    const sdk = held(w).find((c) => c.host === 'my-agent')!;
    expect(sdk.churn).toMatchObject({ sessions: 1, initialize: 1, toolsList: 1, toolsCall: 8 });
    expect(w.sessions.get('sdk-1')!.conversationKey).toBe(sdk.key);
    expect(held(w)).toHaveLength(2);
  });

  it("mcpscope's own sessions (replays, widget previews) join no conversation and are not the host's churn", () => {
    const own = (key: string, userAgent?: string): Step[] =>
      sdkSession(key, 'my-agent', 1).map((step) => ({ ...step, transport: 'replay', ...(userAgent && step.direction === 'c2s' ? { http: { ...step.http!, requestHeaders: { 'user-agent': userAgent } } } : {}) }));
    const w = derive(numbered([...sdkSession('sdk-1', 'my-agent', 2), ...own('mcpscope-replay:fresh-1'), ...own('mcpscope-replay:fresh-2', 'mcpscope (widget preview)')]));
    const [conv, ...others] = held(w);
    expect(others).toEqual([]);
    expect(conv!.churn).toMatchObject({ sessions: 1, initialize: 1, toolsList: 1, toolsCall: 2 });
    const replay = w.sessions.get('mcpscope-replay:fresh-1')!;
    const preview = w.sessions.get('mcpscope-replay:fresh-2')!;
    expect([replay.conversationKey, preview.conversationKey]).toEqual([undefined, undefined]);
    expect(ownSessionKind(replay)).toEqual({ kind: 'replay' });
    expect(ownSessionKind(preview)).toEqual({ kind: 'labelled', label: 'widget preview' });
    expect(ownSessionKind(w.sessions.get('sdk-1')!)).toBeUndefined();
  });

  it('without the host id: the same credential joins, another one does not', () => {
    const steps = [
      ...chatgptCall('chat-1', { credential: 'fp-alice' }),
      ...chatgptCall('chat-2', { credential: 'fp-alice' }),
      ...chatgptCall('chat-3', { credential: 'fp-bob' }),
    ];
    const w = derive(numbered(steps));
    const alice = w.sessions.get('chat-1')!.conversationKey;
    expect(w.sessions.get('chat-2')).toMatchObject({ conversationKey: alice, joinedBy: 'credential' });
    expect(w.sessions.get('chat-3')!.conversationKey).not.toBe(alice);
    expect(w.conversations.get(alice!)!.credential).toBe(true);
    // The fingerprint itself is never part of a summary.
    expect(JSON.stringify([...w.conversations.values()])).not.toContain('fp-alice');
  });

  it('without any evidence: the same client within ten minutes joins (a guess, labelled so); later it starts anew', () => {
    const near = numbered([...chatgptCall('chat-1'), ...chatgptCall('chat-2')]);
    const w = derive(near);
    expect(w.sessions.get('chat-2')).toMatchObject({ conversationKey: w.sessions.get('chat-1')!.conversationKey, joinedBy: 'client-time' });
    const later = numbered(chatgptCall('chat-2'), 1_000_000 + 11 * 60_000);
    const w2 = derive([...numbered(chatgptCall('chat-1')), ...later.map((f) => ({ ...f, seq: f.seq + 100 }))]);
    expect(w2.sessions.get('chat-2')!.conversationKey).not.toBe(w2.sessions.get('chat-1')!.conversationKey);
  });

  it('counts sessions that were opened and never used, and calls on a session the server forgot', () => {
    const unused = chatgptCall('chat-1', { hostId: 'X' }).filter((s) => !s.raw.includes('tools/call') && !s.raw.includes('Echo'));
    const stale: Step[] = [
      { sessionKey: 'gone-1', direction: 'c2s', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', _meta: { 'openai/session': 'X' } } }), http: { method: 'POST', path: '/mcp', connectionId: 'z1', requestHeaders: { 'user-agent': 'openai-mcp/1.0.0', 'mcp-session-id': 'gone-1' } } },
      { sessionKey: 'gone-1', direction: 's2c', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }), http: { method: 'POST', path: '/mcp', connectionId: 'z1', status: 400 } },
    ];
    const w = derive(numbered([...unused, ...stale]));
    const [conv] = held(w);
    expect(conv!.churn).toMatchObject({ sessions: 2, unusedSessions: 1, staleSessionCalls: 1, staleAnswer: 'HTTP 400 · -32000 Bad Request: No valid session ID provided' });
    expect(w.sessions.get('gone-1')).toMatchObject({ expired: true, conversationKey: conv!.key, joinedBy: 'host' });
  });
});

describe('tool lists across a conversation', () => {
  const call = (key: string, id: number, name: string, hostId = 'X'): Step => ({
    sessionKey: key,
    direction: 'c2s',
    transport: 'http-json',
    kind: 'data',
    raw: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: { 'openai/session': hostId } } }),
    http: { method: 'POST', path: '/mcp', connectionId: `k${key}${id}`, requestHeaders: { 'user-agent': 'openai-mcp/1.0.0' } },
  });
  const initOnly = (key: string) => chatgptCall(key, { hostId: 'X' }).slice(0, 3);

  it('a session that listed nothing is checked against the conversation\'s latest list (phantom tools)', () => {
    const w = derive(numbered([...chatgptCall('chat-1', { hostId: 'X' }), ...initOnly('chat-2'), call('chat-2', 5, 'ghost'), call('chat-2', 6, 'echo')]));
    const phantom = w.diagnostics.filter((d) => d.code === 'phantom-tool');
    expect(phantom).toHaveLength(1);
    expect(phantom[0]!.message).toMatch(/"ghost".*latest tools\/list of this conversation \(session chat-1\)/);
    expect(phantom[0]!.message).toContain('refresh the app in ChatGPT');
  });

  it('a call after tools/list_changed in another session of the conversation, without listing again, is reported once', () => {
    const changed: Step = { sessionKey: 'chat-1', direction: 's2c', transport: 'sse', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }), http: { method: 'GET', path: '/mcp', connectionId: 'g1', status: 200 } };
    const w = derive(numbered([...chatgptCall('chat-1', { hostId: 'X' }), changed, ...initOnly('chat-2'), call('chat-2', 5, 'echo'), call('chat-2', 6, 'echo')]));
    const found = w.diagnostics.filter((d) => d.code === 'tool-called-after-list-changed');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/frame #\d+.*"echo"/);
    // ChatGPT's user cannot make it list again: say what ChatGPT does and what to do instead.
    expect(found[0]!.message).toContain('ChatGPT does not re-list on list_changed');
    expect(found[0]!.message).toContain('refresh the app in ChatGPT');
    expect(found[0]!.message).not.toContain('List tools after list_changed');
    // Listing again clears it.
    const w2 = derive(numbered([...chatgptCall('chat-1', { hostId: 'X' }), changed, ...chatgptCall('chat-2', { hostId: 'X' })]));
    expect(w2.diagnostics.filter((d) => d.code === 'tool-called-after-list-changed')).toEqual([]);
  });
});
