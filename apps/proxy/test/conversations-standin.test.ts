// Conversations through the real tap, with the ChatGPT stand-in (support/chatgpt-standin.ts) and
// the official SDK client against real server-everything: one chat of ten calls is one
// conversation of ten sessions, with its churn and era lane; parallel chats stay apart; an SDK
// client's one long session is one conversation of one session; the API lists them and pages a
// conversation's exchanges; a session replay into a churned conversation finds a live session.
import { describe, expect, it } from 'vitest';
import type { ConversationSummary, ConversationsPage, ExchangesPage, ReplayResponse, SessionsPage } from '@mcpscope/protocol';
import { connectClient, settled } from './helpers.js';
import { api } from './replay-helpers.js';
import { ChatGptStandIn } from './support/chatgpt-standin.js';
import { startEverything } from './support/everything.js';
import { startOAuthWorld } from './support/oauth-servers.js';
import { proxiedUpstream } from './support/proxy-fixture.js';

const proxy = proxiedUpstream(() => startEverything('streamableHttp'));

async function conversations(): Promise<ConversationSummary[]> {
  await settled(proxy.app);
  return (await api<ConversationsPage>(proxy.app, '/api/conversations')).body.conversations;
}

const byHostId = async (id: string) => (await conversations()).find((c) => c.hostId === id);

describe('conversations through the tap', () => {
  it('one ChatGPT chat of ten calls, probing before each session: one conversation, ten sessions, its churn and era lane', async () => {
    const chat = new ChatGptStandIn({ mcpUrl: proxy.app.mcpUrl, probe: 'every-session' });
    for (let i = 0; i < 10; i++) expect((await chat.callTool('echo', { message: `call ${i}` })).result).toMatchObject({ content: [{ text: `Echo: call ${i}` }] });
    expect(new Set(chat.sessions).size).toBe(10);

    const conv = (await byHostId(chat.conversationId))!;
    expect(conv).toMatchObject({ host: 'ChatGPT', hostId: chat.conversationId });
    expect(conv.churn).toMatchObject({ sessions: 10, initialize: 10, toolsList: 10, toolsCall: 10, unusedSessions: 0 });
    expect(conv.joinedBy.host).toBe(10);
    // What the traffic carried, recorded as sent.
    expect(Object.keys(conv.hints).sort()).toEqual(['openai/locale', 'openai/session', 'openai/subject', 'openai/userAgent', 'openai/userLocation']);
    // server-everything speaks the legacy era only: each probe is refused, each initialize a fallback.
    expect(conv.era).toMatchObject({ agreed: '2025-06-18', probes: 10, failedProbes: 10, fallbacks: 10 });
    expect(conv.era.steps.map((s) => [s.kind, s.outcome, s.count, !!s.fallback])).toEqual([
      ['discover', 'failed', 10, false],
      ['initialize', 'ok', 10, true],
    ]);
    expect(conv.era.steps[0]!.answer).toMatch(/^HTTP 400 · -32000 /);

    // Its sessions, and its exchanges paged by the filter.
    const sessions = (await api<SessionsPage>(proxy.app, '/api/sessions')).body.sessions.filter((s) => s.conversationKey === conv.key);
    expect(sessions.map((s) => s.sessionKey).sort()).toEqual([...chat.sessions].sort());
    const page = (await api<ExchangesPage>(proxy.app, `/api/exchanges?filter=${encodeURIComponent(`conversation:${conv.key}`)}&limit=1000`)).body;
    // Per call: discover, initialize, initialized, tools/list, tools/call.
    expect(page.exchanges).toHaveLength(50);
    expect(page.exchanges.filter((e) => e.method === 'tools/call')).toHaveLength(10);
    const one = (await api<ExchangesPage>(proxy.app, `/api/exchanges?filter=${encodeURIComponent(`session:${chat.sessions[3]}`)}`)).body;
    expect(one.exchanges.map((e) => e.method).sort()).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'tools/list']);

    const loop = (await api<{ diagnostics: { code: string }[] }>(proxy.app, `/api/exchanges/${page.exchanges.find((e) => e.method === 'server/discover')!.id}`)).body;
    expect(loop.diagnostics).toBeDefined();
    const diagnosed = (await api<ExchangesPage>(proxy.app, `/api/exchanges?filter=${encodeURIComponent(`conversation:${conv.key} diag:discover-probe-loop`)}`)).body;
    expect(diagnosed.exchanges).toHaveLength(1);
  });

  it('two chats at once stay apart; an SDK client\'s one long session is a conversation of one session', async () => {
    const a = new ChatGptStandIn({ mcpUrl: proxy.app.mcpUrl });
    const b = new ChatGptStandIn({ mcpUrl: proxy.app.mcpUrl });
    const sdk = await connectClient(proxy.app.mcpUrl);
    await Promise.all([
      (async () => { for (let i = 0; i < 4; i++) await a.callTool('get-sum', { a: i, b: 1 }); })(),
      (async () => { for (let i = 0; i < 3; i++) await b.callTool('echo', { message: String(i) }); })(),
      (async () => { for (let i = 0; i < 5; i++) await sdk.callTool({ name: 'echo', arguments: { message: 'sdk' } }); })(),
    ]);
    await sdk.close();
    const [ca, cb] = [await byHostId(a.conversationId), await byHostId(b.conversationId)];
    expect(ca!.churn).toMatchObject({ sessions: 4, toolsCall: 4 });
    expect(cb!.churn).toMatchObject({ sessions: 3, toolsCall: 3 });
    expect(ca!.key).not.toBe(cb!.key);
    const mine = (await conversations()).filter((c) => c.host === 'mcpscope-test');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.churn).toMatchObject({ sessions: 1, initialize: 1, toolsCall: 5 });
  });

  it('calls without a session (as ChatGPT\'s tool plane was seen to send) count as stale, with what the server answered', async () => {
    const chat = new ChatGptStandIn({ mcpUrl: proxy.app.mcpUrl, omitSessionOnCall: true });
    const call = await chat.callTool('echo', { message: 'lost' });
    expect(call.httpStatus).toBe(400);
    // The call named its conversation; it counts there, with the server's answer.
    const conv = (await byHostId(chat.conversationId))!;
    expect(conv.churn).toMatchObject({ staleSessionCalls: 1, toolsCall: 1 });
    expect(conv.churn.staleAnswer).toMatch(/^HTTP 400 · -32000 /);
    // The session the stand-in opened was never used: nothing in it named the conversation, so it
    // joined ChatGPT's latest conversation by client and time (a guess, labelled so).
    const opened = (await api<SessionsPage>(proxy.app, '/api/sessions')).body.sessions.find((s) => s.sessionKey === chat.sessions[0])!;
    expect(opened.joinedBy).toBe('client-time');
    expect((await conversations()).find((c) => c.key === opened.conversationKey)!.churn.unusedSessions).toBeGreaterThanOrEqual(1);
  });

  it('a session replay into a churned conversation goes into its newest live session when the original is gone, and says which', async () => {
    const chat = new ChatGptStandIn({ mcpUrl: proxy.app.mcpUrl });
    await chat.callTool('echo', { message: 'first' });
    await chat.callTool('echo', { message: 'second' });
    // The server forgets the first session (the tap never sees it: ChatGPT just stops using it).
    const gone = chat.sessions[0]!;
    await fetch(proxy.upstream.url, { method: 'DELETE', headers: { 'mcp-session-id': gone } });
    await settled(proxy.app);
    const first = proxy.app.store.exchanges(500).find((e) => e.sessionKey === gone && e.method === 'tools/call')!;
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'again' } } };
    const replayed = await api<ReplayResponse>(proxy.app, '/api/replay', { exchangeId: first.id, mode: 'session', message });
    expect(replayed.status).toBe(200);
    expect(replayed.body.exchange).toMatchObject({ status: 'ok', replayOf: first.id });
    expect(replayed.body.sessionKey).toBe(chat.sessions[1]);
    expect(replayed.body.sessionFallback).toMatchObject({ from: gone, to: chat.sessions[1], conversationKey: (await byHostId(chat.conversationId))!.key });
    expect(replayed.body.sessionFallback!.reason).toContain('newest live session');
    // The capture now knows the first session is gone: the next replay goes straight to the live one.
    const again = await api<ReplayResponse>(proxy.app, '/api/replay', { exchangeId: first.id, mode: 'session', message });
    expect(again.body).toMatchObject({ sessionKey: chat.sessions[1], exchange: { status: 'ok' }, sessionFallback: { from: gone } });
  });
});

describe('ChatGPT behind OAuth, without its hints', () => {
  const guarded = proxiedUpstream(async () => {
    const world = await startOAuthWorld();
    return { ...world, url: world.mcpUrl };
  });

  it('discovers, registers and authorizes through the tap; its calls join by the credential\'s fingerprint, never the token', async () => {
    const chat = new ChatGptStandIn({ mcpUrl: guarded.app.mcpUrl, oauth: true, hints: false });
    for (let i = 0; i < 3; i++) expect((await chat.callTool('whoami')).result).toMatchObject({ content: [{ text: 'authorised' }] });
    expect(guarded.upstream.requestedResources).toEqual([guarded.app.mcpUrl]);
    await settled(guarded.app);
    const [conv, ...others] = (await api<ConversationsPage>(guarded.app, '/api/conversations')).body.conversations;
    expect(others).toEqual([]);
    // A stateless server mints no session: every exchange joined on its own. Four initializes: the
    // first, before authorization, was refused with 401.
    expect(conv).toMatchObject({ host: 'ChatGPT', credential: true, churn: { sessions: 0, toolsCall: 3, initialize: 4 } });
    expect(conv!.joinedBy.credential).toBeGreaterThanOrEqual(11);
    const token = [...guarded.upstream.issuedTokens][0]!;
    const store = guarded.app.store;
    const stored = store.db.prepare('SELECT seq, http FROM frames WHERE http IS NOT NULL').all() as { seq: number; http: string }[];
    // Headers are stored once, in templates (templates.ts): neither holds the token.
    const templates = store.db.prepare('SELECT text FROM templates').all() as { text: string }[];
    for (const text of [...stored.map((r) => r.http), ...templates.map((t) => t.text)]) expect(text).not.toContain(token);
    const authorized = store.frames(stored.map((r) => r.seq)).flatMap((f) => (f.http?.requestHeaders?.authorization ? [f.http] : []));
    expect(authorized.length).toBeGreaterThanOrEqual(11);
    // One credential, one fingerprint: 96 bits of an HMAC under the capture file's own key.
    expect(new Set(authorized.map((h) => h.credential))).toEqual(new Set([expect.stringMatching(/^[\w-]{16}$/)]));
    for (const h of authorized) expect(h.requestHeaders!.authorization).toMatch(/^Bearer \[redacted\]/);
  });
});
