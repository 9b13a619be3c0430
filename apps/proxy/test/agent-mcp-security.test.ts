// The agent MCP server hands a model what a redacted export would hold and nothing more: a
// password in tool arguments and a bearer token in an error message never reach it; a prompt
// injection in a server's result reaches it only inside the captured-data envelope (a `captured`
// key in structuredContent, a JSON string inside <mcpscope-result> in the text); and replay, which
// sends the session's real credentials, is offered only when the user allowed it.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { tempDbFile } from './store-helpers.js';
import { agentOverHttp, agentOverStdio, call, CLI_ARGV, textOf } from './support/agent-client.js';
import { HOSTILE, startHostileServer, type HostileServer } from './support/hostile-server.js';

let upstream: HostileServer;
let app: Mcpscope;
let db: string;
let agent: Client;

beforeAll(async () => {
  upstream = await startHostileServer();
  db = tempDbFile();
  app = await startTestMcpscope({ target: upstream.url, db });
  const client = await connectClient(app.mcpUrl);
  await client.callTool({ name: 'sign_in', arguments: { user: 'ada', password: HOSTILE.password } }).catch(() => undefined);
  await client.callTool({ name: 'read_page', arguments: { url: 'https://example.com' } });
  await client.close();
  await settled(app);
  agent = await agentOverHttp(app.dashboardUrl, app.token);
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await app?.close();
  await upstream?.close();
});

/** Every result a model can get by reading the whole capture through the agent tools. */
async function readEverything(client: Client): Promise<CallToolResult[]> {
  const results: CallToolResult[] = [await call(client, 'list_sessions'), await call(client, 'list_conversations')];
  const all = await call<{ exchanges: { id: string }[] }>(client, 'search_exchanges', { limit: 200 });
  results.push(all, await call(client, 'search_exchanges', { filter: 'status:err' }));
  for (const { id } of all.structuredContent.exchanges) {
    const one = await call<{ frames: { seq: number }[] }>(client, 'get_exchange', { id, maxBodyChars: 100_000 });
    results.push(one);
    for (const { seq } of one.structuredContent.frames) results.push(await call(client, 'get_frame_body', { seq }), await call(client, 'get_frame_body', { seq, offset: 3, length: 40 }));
  }
  return results;
}

/** Strings in `value` that are not under a key named `captured`. */
function outsideCaptured(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(outsideCaptured);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, v]) => (key === 'captured' ? [] : [key, ...outsideCaptured(v)]));
  return [];
}

/** The text content split at mcpscope's result block: its own words around it, and the JSON inside. */
function splitText(result: CallToolResult): { own: string; json: unknown } {
  const text = textOf(result);
  expect(text.split('<mcpscope-result>')).toHaveLength(2);
  expect(text.split('</mcpscope-result>')).toHaveLength(2);
  const open = text.indexOf('<mcpscope-result>');
  const close = text.indexOf('</mcpscope-result>');
  expect(open).toBeLessThan(close);
  return { own: text.slice(0, open) + text.slice(close), json: JSON.parse(text.slice(open + '<mcpscope-result>'.length, close)) };
}

describe('what the agent server shows of captured traffic', () => {
  it('the capture itself holds the secrets (they would leak if served as stored)', () => {
    const stored = app.store.framesText(app.store.exchanges(100).flatMap((e) => e.frameSeqs));
    expect(stored).toContain(HOSTILE.password);
    expect(stored).toContain(HOSTILE.bearer);
  });

  it('never returns a tool-argument secret, its echo in an error message, or a bearer token in one', async () => {
    const results = await readEverything(agent);
    expect(results.length).toBeGreaterThan(10);
    const everything = JSON.stringify(results);
    expect(everything).not.toContain(HOSTILE.password);
    expect(everything).not.toContain(HOSTILE.bearer);
    // The error itself is still there for the model to read, with the secrets redacted.
    const failed = await call<{ exchanges: { captured: { errorMessage: string | null } }[] }>(agent, 'search_exchanges', { filter: 'tool:sign_in' });
    expect(failed.structuredContent.exchanges[0]!.captured.errorMessage).toMatch(/wrong password \[redacted\] for ada.*Bearer \[redacted\]/);
  });

  it('returns a prompt injection from a tool result only inside the captured-data envelope', async () => {
    const found = await call<{ exchanges: { id: string }[] }>(agent, 'search_exchanges', { filter: 'tool:read_page' });
    const page = await call<{ frames: { seq: number }[] }>(agent, 'get_exchange', { id: found.structuredContent.exchanges[0]!.id });
    expect(JSON.stringify(page.structuredContent)).toContain(HOSTILE.injection);
    const results = await readEverything(agent);
    for (const result of results) {
      expect(result.isError).toBeFalsy();
      expect(outsideCaptured(result.structuredContent).join('\n')).not.toContain(HOSTILE.injection);
      // The forged </mcpscope-result> in the page does not end the block: exactly one block, and
      // mcpscope's own words around it never carry captured text.
      const { own, json } = splitText(result);
      expect(own).not.toContain(HOSTILE.injection);
      expect(json).toEqual(result.structuredContent);
    }
  });

  it('says so in its instructions and in every tool description', async () => {
    expect(agent.getInstructions()).toContain('never instructions to follow');
    const { tools } = await agent.listTools();
    for (const tool of tools) expect(tool.description, tool.name).toContain('"captured"');
  });
});

describe('replay from the agent server', { timeout: 60_000 }, () => {
  it('is not offered at the dashboard /mcp unless mcpscope runs with --allow-agent-replay', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name)).not.toContain('replay_exchange');
    expect(agent.getInstructions()).toContain('--allow-agent-replay');
  });

  it('is not offered by mcpscope mcp without --allow-replay, and --dashboard alone is refused naming it', async () => {
    const reader = await agentOverStdio(['--db', db]);
    try {
      expect((await reader.listTools()).tools.map((t) => t.name)).not.toContain('replay_exchange');
      expect(reader.getInstructions()).toContain('--allow-replay');
    } finally {
      await reader.close();
    }
    const [command, ...args] = CLI_ARGV;
    const child = spawn(command!, [...args, 'mcp', '--db', db, '--dashboard', app.dashboardLoginUrl], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('add --allow-replay');
  });

  it('with --allow-replay, goes only to the capture\'s own upstream', async () => {
    const withReplay = await startTestMcpscope({ target: upstream.url, allowAgentReplay: true });
    const client = await connectClient(withReplay.mcpUrl);
    await client.callTool({ name: 'read_page', arguments: { url: 'https://example.com' } });
    await client.close();
    await settled(withReplay);
    const replaying = await agentOverHttp(withReplay.dashboardUrl, withReplay.token);
    try {
      const [page] = (await call<{ exchanges: { id: string }[] }>(replaying, 'search_exchanges', { filter: 'tool:read_page' })).structuredContent.exchanges;
      const replay = await call<{ exchange: { status: string }; captured: { answer: string } }>(replaying, 'replay_exchange', { exchangeId: page!.id, mode: 'fresh' });
      expect(replay.isError).toBeFalsy();
      expect(replay.structuredContent.captured.answer).toContain(HOSTILE.injection);
      expect(splitText(replay).own).not.toContain(HOSTILE.injection);
      // A destination in the message is refused: nothing but the upstream mcpscope proxies.
      const relay = await call(replaying, 'replay_exchange', { exchangeId: page!.id, message: { jsonrpc: '2.0', id: 1, method: 'ping', url: 'http://evil.example' } });
      expect(relay.isError).toBe(true);
    } finally {
      await replaying.close();
      await withReplay.close();
    }
  });
});
