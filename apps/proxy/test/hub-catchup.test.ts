// A dashboard that reconnects to a capture of many sessions and conversations is sent what changed
// after its cursor, never every row: the sessions and conversations the frames since touched, and
// no more. A backlog of more than `maxCatchUp` items (frames and the rows they changed) is not
// streamed: the dashboard is told to resync and reloads from the API. Counted on what a real
// WebSocket receives from the real hub; the traffic is written through the pipeline as the tap
// writes it, each conversation a session whose initialize carries a credential of its own.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerEvent } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import type { LiveHubOptions } from '../src/hub/live-hub.js';
import { RESYNC_CLOSE_CODE } from '../src/hub/live-hub.js';
import { startTestMcpscope } from './support/mcpscope.js';

const CONVERSATIONS = 300;

let app: Mcpscope | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const http = (n: number) => ({ method: 'POST', path: '/mcp', credential: `fingerprint-${n}` });

/** Opens the `n`-th conversation: one session, its initialize sent with a credential of its own. */
function openConversation(mcpscope: Mcpscope, n: number): void {
  const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host', version: '1' } } });
  mcpscope.pipeline.record({ ts: 1_750_000_000_000 + n, sessionKey: `session-${n}`, direction: 'c2s', transport: 'http-json', kind: 'data', raw, http: http(n) });
}

/** A tool call on the `n`-th conversation's session. */
function callOn(mcpscope: Mcpscope, n: number, id: number): void {
  const raw = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } });
  mcpscope.pipeline.record({ ts: 1_750_000_100_000 + id, sessionKey: `session-${n}`, direction: 'c2s', transport: 'http-json', kind: 'data', raw, http: http(n) });
}

async function startWithConversations(hub: LiveHubOptions): Promise<Mcpscope> {
  app = await startTestMcpscope({ hub: { flushIntervalMs: 5, ...hub } });
  for (let n = 0; n < CONVERSATIONS; n++) openConversation(app, n);
  app.pipeline.flush(true);
  await app.pipeline.whenWritten();
  return app;
}

/** A dashboard's socket resuming from `after`: every event it receives, and how it closed. */
function connect(mcpscope: Mcpscope, after?: number): { events: ServerEvent[]; closed: Promise<number>; socket: WebSocket } {
  const query = after === undefined ? '' : `?after=${after}`;
  const socket = new WebSocket(`${mcpscope.dashboardUrl.replace('http', 'ws')}/ws${query}`, ['mcpscope', `mcpscope.token.${mcpscope.token}`]);
  const events: ServerEvent[] = [];
  socket.on('message', (data) => events.push(JSON.parse(String(data)) as ServerEvent));
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  return { events, closed, socket };
}

/** Resolves once `events` holds one that `done` accepts. */
async function until(events: ServerEvent[], done: (e: ServerEvent) => boolean): Promise<void> {
  await expect.poll(() => events.some(done), { timeout: 10_000, interval: 10 }).toBe(true);
}

/** The cursor a dashboard holds: the head its `hello` said. */
async function currentHead(mcpscope: Mcpscope): Promise<number> {
  const first = connect(mcpscope);
  await until(first.events, (e) => e.type === 'hello');
  first.socket.close();
  await first.closed;
  const hello = first.events[0]!;
  if (hello.type !== 'hello') throw new Error(`first event: ${hello.type}`);
  return hello.head;
}

describe('a dashboard reconnecting to a capture of many sessions and conversations', () => {
  it('is sent only the sessions and conversations changed after its cursor', async () => {
    const mcpscope = await startWithConversations({});
    const cursor = await currentHead(mcpscope);
    // While it is away: one new conversation, and a call on an old one.
    openConversation(mcpscope, CONVERSATIONS);
    callOn(mcpscope, 7, 2);
    mcpscope.pipeline.flush(true);
    await mcpscope.pipeline.whenWritten();
    const head = cursor + 2;
    const back = connect(mcpscope, cursor);
    await until(back.events, (e) => e.type === 'frames/add' && e.head >= head);
    back.socket.close();
    const sessions = back.events.flatMap((e) => (e.type === 'sessions/update' ? e.sessions.map((s) => s.sessionKey) : []));
    const conversations = back.events.flatMap((e) => (e.type === 'conversations/update' ? e.conversations.map((c) => c.key) : []));
    expect(new Set(sessions)).toEqual(new Set([`session-${CONVERSATIONS}`, 'session-7']));
    expect(new Set(conversations).size).toBe(2);
    const frames = back.events.flatMap((e) => (e.type === 'frames/add' ? e.frames.map((f) => f.seq) : []));
    expect(frames).toEqual([cursor + 1, cursor + 2]);
    expect(back.events.some((e) => e.type === 'resync')).toBe(false);
  });

  it('is told to resync, and sent no backlog, when the rows changed since are more than the bound', async () => {
    // 8 frames behind, well under the bound, but each opens a conversation: 8 frames, 8 exchanges,
    // 8 sessions and 8 conversations to send.
    const mcpscope = await startWithConversations({ maxCatchUp: 20 });
    const cursor = await currentHead(mcpscope);
    for (let n = CONVERSATIONS; n < CONVERSATIONS + 8; n++) openConversation(mcpscope, n);
    mcpscope.pipeline.flush(true);
    await mcpscope.pipeline.whenWritten();
    const back = connect(mcpscope, cursor);
    await until(back.events, (e) => e.type === 'resync' || e.type === 'frames/add');
    expect(back.events.map((e) => e.type)).toEqual(['hello', 'resync']);
    expect(await back.closed).toBe(RESYNC_CLOSE_CODE);
  });
});
