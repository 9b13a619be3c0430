// Clients at the door are conversations (issue 15's "what a client is", refined by issue 20):
// ChatGPT opens an MCP session for every tool call, so grouping door records by session alone
// would show one chat as ten clients that each connected once. Through the real tap, with the
// ChatGPT stand-in and the official SDK client against real server-everything, and with the
// stand-in's OAuth against the SDK's OAuth server: one chat is one client with all its sessions.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ConversationsPage } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { api } from './replay-helpers.js';
import { ChatGptStandIn } from './support/chatgpt-standin.js';
import { flows, stepChecks } from './support/door-flows.js';
import { startEverything } from './support/everything.js';
import { proxiedUpstream } from './support/proxy-fixture.js';

async function conversationKey(app: Mcpscope, hostId: string): Promise<string> {
  await settled(app);
  return (await api<ConversationsPage>(app, '/api/conversations')).body.conversations.find((c) => c.hostId === hostId)!.key;
}

describe('door clients are conversations', () => {
  const proxy = proxiedUpstream(() => startEverything('streamableHttp'));

  it('a chat of ten calls, probing before each session, is one client; a parallel chat and an SDK client are their own', async () => {
    // The probing chat alone: a probe carries no session and no conversation id, so with a second
    // chat busy at the same moment the deriver's guess (client and time) could go either way.
    const chat = new ChatGptStandIn({ mcpUrl: proxy.app.mcpUrl, probe: 'every-session' });
    for (let i = 0; i < 10; i++) await chat.callTool('echo', { message: `call ${i}` });
    const other = new ChatGptStandIn({ mcpUrl: proxy.app.mcpUrl });
    const sdk = new Client({ name: 'my-agent', version: '2.1.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl)));
    await Promise.all([
      (async () => {
        for (let i = 0; i < 3; i++) await other.callTool('get-sum', { a: i, b: 1 });
      })(),
      (async () => {
        await sdk.listTools();
        for (let i = 0; i < 4; i++) await sdk.callTool({ name: 'echo', arguments: { message: `sdk ${i}` } });
      })(),
    ]);
    await sdk.close();

    const all = await flows(proxy.app);
    const key = await conversationKey(proxy.app, chat.conversationId);
    const otherKey = await conversationKey(proxy.app, other.conversationId);
    // Three clients, not fourteen sessions.
    expect(all.map((f) => `${f.label} (${f.sessions})`).sort()).toEqual(['ChatGPT (10)', 'ChatGPT (3)', 'my-agent 2.1.0 (1)']);

    const chatFlow = all.find((f) => f.clientKey === `conversation:${key}`)!;
    expect(chatFlow).toMatchObject({ conversationKey: key, joinedBy: ['mcp-session', 'conversation'], verdict: { kind: 'connected', sentence: 'connected (2025-06-18)' } });
    // Every request the chat made is in its story: per call a probe, initialize, initialized, tools/list, tools/call.
    expect(chatFlow.records).toBe(50);
    // Told in four lines: the era probe server-everything refuses (a loop by the third: amber, not
    // red), the ten initializes, the ten first listings, and the calls.
    expect(stepChecks(chatFlow)).toEqual(['amber:era-probe', 'green:initialize', 'green:tools-list', 'green:mcp-calls']);
    const [probe, init, list, calls] = chatFlow.steps;
    expect(probe!.title).toBe('server/discover → HTTP 400 ×10');
    expect(probe!.reason).toContain('10 times and was refused each time');
    expect(init!.title).toBe('initialize → 2025-06-18 ×10');
    expect(init!.records).toHaveLength(10);
    expect(list!.title).toBe('tools/list → ok ×10');
    expect(calls!.reason).toBe('10 tools/call.');

    const otherFlow = all.find((f) => f.clientKey === `conversation:${otherKey}`)!;
    expect(otherFlow).toMatchObject({ sessions: 3, records: 12 });
    expect(stepChecks(otherFlow)).toEqual(['green:initialize', 'green:tools-list', 'green:mcp-calls']);
    const sdkFlow = all.find((f) => f.label.startsWith('my-agent'))!;
    expect(sdkFlow.verdict.sentence).toBe('connected (2025-11-25)');
    expect(sdkFlow.steps.find((s) => s.check === 'mcp-calls')!.reason).toContain('4 tools/call');
  });
});
