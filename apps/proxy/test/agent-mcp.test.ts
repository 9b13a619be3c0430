// The capture as an MCP server for coding agents, against a capture of a real session (an SDK
// client and server-everything through the tap): the official SDK client lists and calls every
// tool, over Streamable HTTP at the dashboard's /mcp (token required; never on the tap) and over
// stdio from `mcpscope mcp --db FILE` (replaying through the running mcpscope's dashboard).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { tempDbFile } from './store-helpers.js';
import { startEverything, type Everything } from './support/everything.js';
import { agentOverHttp, agentOverStdio, call, textOf } from './support/agent-client.js';

interface Row {
  id: string;
  status: string;
  replayOf: string | null;
  captured: { method: string | null; target: string | null; sessionKey: string };
}

let everything: Everything;
let app: Mcpscope;
let db: string;
let http: Client;
const ids: Record<string, string> = {};

beforeAll(async () => {
  everything = await startEverything('streamableHttp');
  db = tempDbFile();
  app = await startTestMcpscope({ target: everything.url, db, allowAgentReplay: true });
  const client = await connectClient(app.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: { message: 'hello agent' } });
  await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 'two' } });
  await client.getPrompt({ name: 'no-such-prompt' }).catch(() => undefined);
  await client.close();
  await settled(app);
  for (const ex of app.store.exchanges(100)) ids[`${ex.method} ${ex.target ?? ''}`.trim()] = ex.id;
  http = await agentOverHttp(app.dashboardUrl, app.token);
}, 60_000);

afterAll(async () => {
  await http?.close();
  await app?.close();
  await everything?.close();
});

describe('over Streamable HTTP at the dashboard /mcp', () => {
  it('lists every tool with an input and an output schema and a description written for a model', async () => {
    const { tools } = await http.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_exchange', 'get_frame_body', 'list_conversations', 'list_sessions', 'replay_exchange', 'search_exchanges', 'verify_capture']);
    for (const tool of tools) {
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
      expect(tool.description!.length).toBeGreaterThan(80);
    }
    expect(tools.find((t) => t.name === 'search_exchanges')!.description).toContain('status:');
  });

  it('list_sessions: who talked to which server', async () => {
    const result = await call<{ sessions: { captured: { client: string; server: string; protocolVersion: string }; counts: Record<string, number> }[]; total: number }>(http, 'list_sessions');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.total).toBe(1);
    expect(result.structuredContent.sessions[0]).toMatchObject({ captured: { client: 'mcpscope-test 1.0.0', protocolVersion: '2025-11-25' }, counts: expect.objectContaining({ ok: expect.any(Number), business_error: 1 }) });
    expect(result.structuredContent.sessions[0]!.captured.server).toMatch(/everything/i);
  });

  it('list_conversations: the SDK client’s one long session is one conversation, and its key reads it as one timeline', async () => {
    const result = await call<{ conversations: { captured: { conversationKey: string }; sessions: number; counts: Record<string, number> }[]; total: number }>(http, 'list_conversations');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.total).toBe(1);
    const [conversation] = result.structuredContent.conversations;
    expect(conversation).toMatchObject({ sessions: 1, counts: expect.objectContaining({ business_error: 1 }) });
    const inside = await call<{ exchanges: Row[] }>(http, 'search_exchanges', { filter: `conversation:${conversation!.captured.conversationKey}`, limit: 200 });
    const everything = await call<{ exchanges: Row[] }>(http, 'search_exchanges', { limit: 200 });
    expect(inside.structuredContent.exchanges.map((e) => e.id)).toEqual(everything.structuredContent.exchanges.map((e) => e.id));
  });

  it('search_exchanges: the filter language, paged, and syntax errors as tool errors with the position', async () => {
    const failed = await call<{ exchanges: Row[]; nextCursor: string | null }>(http, 'search_exchanges', { filter: 'status:err' });
    expect(failed.structuredContent.exchanges.map((e) => `${e.captured.method} ${e.captured.target} ${e.status}`).sort()).toEqual(['prompts/get no-such-prompt protocol_error', 'tools/call get-sum business_error']);
    expect(failed.structuredContent.nextCursor).toBeNull();

    const first = await call<{ exchanges: Row[]; nextCursor: string | null }>(http, 'search_exchanges', { limit: 2 });
    expect(first.structuredContent.exchanges).toHaveLength(2);
    const next = await call<{ exchanges: Row[]; nextCursor: string | null }>(http, 'search_exchanges', { limit: 2, cursor: first.structuredContent.nextCursor });
    expect(next.structuredContent.exchanges.map((e) => e.id)).not.toContain(first.structuredContent.exchanges[0]!.id);

    const bad = await call(http, 'search_exchanges', { filter: 'status:err (tool:echo' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/does not parse at character \d+/);
    expect(bad.structuredContent).toBeUndefined();
  });

  it('get_exchange: frames with bodies cut on request, diagnostics; get_frame_body reads the rest', async () => {
    const list = await call<{ exchange: Row; frames: { seq: number; captured: { body: string }; bodyChars: number; truncated: boolean; direction: string }[]; diagnostics: unknown[] }>(http, 'get_exchange', { id: ids['tools/list'], maxBodyChars: 100 });
    expect(list.structuredContent.exchange).toMatchObject({ captured: { method: 'tools/list' }, status: 'ok' });
    const answer = list.structuredContent.frames.find((f) => f.direction === 's2c')!;
    expect(answer).toMatchObject({ truncated: true, captured: { body: expect.stringMatching(/^\{/) } });
    expect(answer.captured.body).toHaveLength(100);
    let whole = '';
    for (let offset: number | null = 0; offset !== null; ) {
      const piece: Awaited<ReturnType<typeof call<{ captured: { text: string }; nextOffset: number | null; totalChars: number }>>> = await call(http, 'get_frame_body', { seq: answer.seq, offset, length: 1000 });
      whole += piece.structuredContent.captured.text;
      offset = piece.structuredContent.nextOffset;
    }
    expect(whole).toHaveLength(answer.bodyChars);
    expect(JSON.parse(whole).result.tools.length).toBeGreaterThan(5);

    const sum = await call<{ frames: { captured: { body: string } }[]; verdict: { kind: string; fault: string; title: string; captured: { fix: string } } | null }>(http, 'get_exchange', { id: ids['tools/call get-sum'] });
    expect(sum.structuredContent.frames.map((f) => f.captured.body).join('\n')).toContain('"b":"two"');
    // b: "two" breaks get-sum's inputSchema: the client's to fix, said with the fix.
    expect(sum.structuredContent.verdict).toMatchObject({ kind: 'client-malformed-request', fault: 'client', title: 'The client sent a malformed request' });
    expect(sum.structuredContent.verdict!.captured.fix).not.toBe('');
    // The findings carry the same help the dashboard shows, in mcpscope's words (outside `captured`).
    const withHelp = (sum.structuredContent as unknown as { diagnostics: { code: string; help: string | null }[] }).diagnostics.find((d) => d.help !== null);
    expect(withHelp?.help).toMatch(/Mistake \d of the six|rules/);
    expect(textOf(sum)).toContain('verdict: The client sent a malformed request (fix on the client side)');
    expect(list.structuredContent).toMatchObject({ verdict: null });
    const missing = await call(http, 'get_exchange', { id: '99999' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('No exchange "99999"');
  });

  it('replay_exchange: resends with fixed params; the replay is captured and linked', async () => {
    const result = await call<{ exchange: Row; captured: { answer: string }; sentId: string }>(http, 'replay_exchange', { exchangeId: ids['tools/call get-sum'], params: { name: 'get-sum', arguments: { a: 1, b: 2 } } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.exchange).toMatchObject({ status: 'ok', replayOf: ids['tools/call get-sum'] });
    expect(result.structuredContent.captured.answer).toContain('The sum of 1 and 2 is 3');
    expect(result.structuredContent.sentId).toMatch(/^mcpscope-replay-/);
    expect(app.store.exchange(result.structuredContent.exchange.id)).toMatchObject({ replayOf: ids['tools/call get-sum'] });
    // The dashboard's refusals hold here too: nothing but the configured upstream.
    const relay = await call(http, 'replay_exchange', { exchangeId: ids['tools/call echo'], message: { jsonrpc: '2.0', id: 1, method: 'ping', url: 'http://evil.example' } });
    expect(relay.isError).toBe(true);
  });

  it('verify_capture: re-runs the selected captured calls against the proxied server and compares', async () => {
    const same = await call<{ target: string; counts: Record<string, number>; rows: { exchangeId: string; captured: { call: string }; verdict: string }[] }>(http, 'verify_capture', { only: 'tool:echo | tool:get-sum' });
    expect(same.isError).toBeFalsy();
    expect(same.structuredContent.target).toBe(everything.url);
    expect(same.structuredContent.rows.filter((r) => r.exchangeId === ids['tools/call echo'])).toEqual([expect.objectContaining({ captured: expect.objectContaining({ call: 'tools/call echo' }), verdict: 'same' })]);
    expect(same.structuredContent.rows.find((r) => r.exchangeId === ids['tools/call get-sum'])?.verdict).toBe('same');
    const strict = await call<{ rows: { exchangeId: string; verdict: string }[] }>(http, 'verify_capture', { only: 'tool:get-sum', expectOk: true });
    expect(strict.structuredContent.rows.find((r) => r.exchangeId === ids['tools/call get-sum'])?.verdict).toBe('failing');
    const bad = await call(http, 'verify_capture', { only: 'tool:(' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/character \d+/);
  });

  it('is behind the dashboard token, and is not on the tap', async () => {
    const res = await fetch(`${app.dashboardUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(res.status).toBe(401);
    const tap = await connectClient(app.mcpUrl);
    const { tools } = await tap.listTools();
    expect(tools.map((t) => t.name)).not.toContain('search_exchanges');
    await tap.close();
  });
});

describe('over stdio: mcpscope mcp --db FILE', { timeout: 60_000 }, () => {
  it('reads the file a running mcpscope writes, and replays through its dashboard', async () => {
    const agent = await agentOverStdio(['--db', db, '--allow-replay', '--dashboard', app.dashboardLoginUrl, '--verify-target', everything.url]);
    try {
      const { tools } = await agent.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['replay_exchange', 'verify_capture']));
      const verified = await call<{ target: string; rows: { exchangeId: string; verdict: string }[] }>(agent, 'verify_capture', { only: 'tool:echo' });
      expect(verified.structuredContent.target).toBe(everything.url);
      expect(verified.structuredContent.rows.find((r) => r.exchangeId === ids['tools/call echo'])?.verdict).toBe('same');
      const found = await call<{ exchanges: Row[] }>(agent, 'search_exchanges', { filter: 'tool:echo' });
      expect(found.structuredContent.exchanges.map((e) => e.id)).toContain(ids['tools/call echo']);
      const replay = await call<{ exchange: Row; captured: { answer: string } }>(agent, 'replay_exchange', { exchangeId: ids['tools/call echo'], mode: 'fresh' });
      expect(replay.isError).toBeFalsy();
      expect(replay.structuredContent.exchange).toMatchObject({ status: 'ok', replayOf: ids['tools/call echo'] });
      expect(replay.structuredContent.captured.answer).toContain('hello agent');
      // The running mcpscope captured it: the file shows it to the agent too.
      const again = await call<{ exchanges: Row[] }>(agent, 'search_exchanges', { filter: 'tool:echo' });
      expect(again.structuredContent.exchanges.map((e) => e.replayOf)).toContain(ids['tools/call echo']);
    } finally {
      await agent.close();
    }
  });

  it('has no replay tool without --allow-replay, and says why', async () => {
    const agent = await agentOverStdio(['--db', db]);
    try {
      const { tools } = await agent.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_exchange', 'get_frame_body', 'list_conversations', 'list_sessions', 'search_exchanges']);
      expect(agent.getInstructions()).toContain('--allow-replay');
    } finally {
      await agent.close();
    }
  });
});
