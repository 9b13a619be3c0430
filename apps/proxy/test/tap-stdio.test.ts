// `--stdio`: server-everything in stdio mode, spawned by mcpscope and reached over Streamable
// HTTP through the tap by an official SDK client. Every stdin and stdout line is a frame, stderr
// lines are log frames, and the child's exit is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { splitCommand } from '../src/upstream/split-command.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { EVERYTHING_BIN } from './support/everything.js';
import { exercise, newClient, recordWire } from './support/scenario.js';
import { allFrames, asMultiset, dataFrames, parsed } from './support/capture.js';

let app: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope({ stdio: `"${process.execPath}" ${EVERYTHING_BIN} stdio` });
});
afterAll(() => app?.close());

describe('a stdio server through --stdio', () => {
  it('serves the SDK client over Streamable HTTP at /mcp and records every line once', async () => {
    expect(new URL(app.mcpUrl).pathname).toBe('/mcp');
    const { transport, wire } = recordWire(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
    const client = newClient();
    await client.connect(transport);
    const got = await exercise(client);
    expect(got.echo).toContain('hello through the tap');
    expect(got.progress).toEqual([1, 2, 3]);
    expect(got.sampling).toContain('sampled: Resource trigger-sampling-request context: a haiku');
    expect(got.elicitation).toContain('decline');
    expect(got.prompts).toContain('args-prompt');
    await client.close();
    await settled(app);

    const key = `stdio:${app.stdio!.child.pid}`;
    expect(parsed(dataFrames(app, key, 'c2s'))).toEqual(wire.sent);
    // The child may write lines nobody asked for (log notifications before setLevel): the
    // client got a subset, every line is in the capture.
    const s2c = parsed(dataFrames(app, key, 's2c'));
    expect(asMultiset(s2c)).toEqual(expect.arrayContaining(asMultiset(wire.received)));
    const frames = allFrames(app).filter((f) => f.sessionKey === key);
    expect(new Set(frames.map((f) => f.transport))).toEqual(new Set(['stdio']));
    expect(frames.some((f) => f.kind === 'log')).toBe(true); // server-everything writes to stderr
    const c2s = dataFrames(app, key, 'c2s');
    expect(c2s[0]!.http?.requestHeaders?.['user-agent']).toBeTruthy();
    const exchanges = app.store.exchanges(1000).filter((e) => e.sessionKey === key && e.kind === 'request');
    for (const ex of exchanges) expect(ex.status, `${ex.method} ${ex.target ?? ''}`).toMatch(/^(ok|business_error)$/);
    expect(app.store.sessions().find((s) => s.sessionKey === key)).toMatchObject({ transport: 'stdio', clientInfo: { name: 'mcpscope-test' } });
  });

  it('answers a client that accepts only JSON with a JSON body', async () => {
    const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 'p1', method: 'ping' }) });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 'p1', result: {} });
  });

  it('records the child exit on shutdown and answers later requests with 502', async () => {
    const pid = app.stdio!.child.pid;
    await app.stdio!.close();
    await settled(app);
    const exit = allFrames(app).filter((f) => f.sessionKey === `stdio:${pid}` && f.kind === 'transport');
    expect(exit).toHaveLength(1);
    expect(JSON.parse(exit[0]!.raw)).toMatchObject({ event: 'child-exited' });
    const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ id: 7, error: { message: expect.stringContaining('exited') } });
  });
});

describe('splitCommand', () => {
  it('splits like a shell without running one', () => {
    expect(splitCommand(`node "my server.js" --name 'a b' x\\ y $HOME;rm`)).toEqual(['node', 'my server.js', '--name', 'a b', 'x y', '$HOME;rm']);
    expect(splitCommand(`a "" b`)).toEqual(['a', '', 'b']);
    expect(() => splitCommand(`node "unclosed`)).toThrow(/unclosed/);
    expect(() => splitCommand('   ')).toThrow(/needs a command/);
  });
});

describe('a stdio server that dies mid-call', () => {
  it('answers the waiting client with a JSON-RPC error, keeps its stderr, and marks the call transport_error', async () => {
    // Reads one line, complains on stderr, exits 3 without answering. Quoted as a user would.
    const script = `process.stdin.once('data', () => { console.error('out of memory, pretend'); process.exit(3); })`;
    const dying = await startTestMcpscope({ stdio: `"${process.execPath}" -e "${script}"` });
    try {
      const res = await fetch(dying.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'x' } }) });
      const text = await res.text();
      expect(text).toContain('"id":11');
      expect(text).toContain('exited with code 3');
      await settled(dying);
      const frames = allFrames(dying);
      expect(frames.filter((f) => f.kind === 'log').map((f) => f.raw)).toEqual(['out of memory, pretend']);
      expect(dying.store.exchanges(10)).toEqual([expect.objectContaining({ rpcId: 11, status: 'transport_error', errorMessage: 'the stdio server exited with code 3' })]);
    } finally {
      await dying.close();
    }
  });

  it('refuses to start when the command does not exist', async () => {
    await expect(startTestMcpscope({ stdio: 'definitely-not-a-command-mcpscope --flag' })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a stdio server answering a batch (2025-03-26) with one array line', () => {
  it('returns that array once, over SSE and as JSON', async () => {
    const script = `require('readline').createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); const a = (x) => ({ jsonrpc: '2.0', id: x.id, result: { echo: x.method } }); console.log(JSON.stringify(Array.isArray(m) ? m.map(a) : a(m))); })`;
    const batcher = await startTestMcpscope({ stdio: `"${process.execPath}" -e "${script}"` });
    try {
      const batch = JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
      const expected = [{ jsonrpc: '2.0', id: 1, result: { echo: 'ping' } }, { jsonrpc: '2.0', id: 2, result: { echo: 'tools/list' } }];
      const asJson = await fetch(batcher.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: batch });
      expect(await asJson.json()).toEqual(expected);
      const asSse = await (await fetch(batcher.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: batch })).text();
      expect(asSse).toBe(`event: message\ndata: ${JSON.stringify(expected)}\n\n`);
    } finally {
      await batcher.close();
    }
  });
});
