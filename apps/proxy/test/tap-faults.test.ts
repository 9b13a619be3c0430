// Failures are answers, not crashes: what the client gets and what the capture shows when the
// upstream is reset, dies mid-stream, sends junk, or when the client itself goes away.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mcpscope, StartOptions } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startFaultServer, type FaultServer } from './support/fault-server.js';
import { allFrames } from './support/capture.js';

let upstream: FaultServer;
const apps: Mcpscope[] = [];
beforeAll(async () => {
  upstream = await startFaultServer();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await upstream?.close();
});

/** A tap whose MCP endpoint is `path` on the fault server. */
async function tapFor(path: string, options: StartOptions = {}): Promise<Mcpscope> {
  const app = await startTestMcpscope({ target: upstream.origin + path, ...options });
  apps.push(app);
  return app;
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });

const rpc = (id: number, method = 'tools/call') => JSON.stringify({ jsonrpc: '2.0', id, method, params: { name: 'x' } });

describe('tap faults', () => {
  it('upstream resets the connection: 502 with a JSON-RPC error carrying the id, and a transport_error row', async () => {
    const app = await tapFor('/reset');
    const res = await post(app.mcpUrl, rpc(31));
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 31, error: { code: -32000, message: expect.stringContaining('upstream unreachable') } });
    await settled(app);
    expect(app.store.exchanges(10)).toEqual([expect.objectContaining({ rpcId: 31, status: 'transport_error' })]);
  });

  it('an unparseable request that fails upstream gets id null', async () => {
    const app = await tapFor('/reset');
    const res = await post(app.mcpUrl, '{"jsonrpc":');
    expect(res.status).toBe(502);
    expect(((await res.json()) as { id: unknown }).id).toBeNull();
  });

  it('upstream dies mid-stream: the client keeps what came and sees the stream end cleanly; the row says what broke', async () => {
    const app = await tapFor('/dies-mid-stream');
    const res = await post(app.mcpUrl, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 't' } } }));
    const text = await res.text(); // resolves: the stream ended, it did not error
    expect(text).toContain('notifications/progress');
    await settled(app);
    const [row] = app.store.exchanges(10);
    expect(row).toMatchObject({ rpcId: 5, status: 'transport_error', errorMessage: expect.stringContaining('the SSE stream broke') });
    expect(row!.frameSeqs).toHaveLength(3); // request, progress, the transport frame
  });

  it('a client that goes away aborts the upstream request, and the row is cancelled', async () => {
    const app = await tapFor('/slow');
    const { request } = await import('node:http');
    const req = request({ host: '127.0.0.1', port: new URL(app.tapUrl).port, path: '/slow', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' } });
    req.on('error', () => {});
    req.end(rpc(9));
    // Leave only once the upstream holds the request (bounded wait).
    for (let i = 0; i < 500 && !upstream.received.some((r) => r.url === '/slow'); i++) await new Promise((r) => setTimeout(r, 10));
    req.destroy();
    await upstream.slowAborted; // the upstream saw its request go away
    await settled(app);
    expect(app.store.exchanges(10).find((e) => e.rpcId === 9)).toMatchObject({ status: 'cancelled' });
  });

  it('passes the headers of an SSE stream at once, before any event', async () => {
    const app = await tapFor('/sse-idle');
    const ac = new AbortController();
    const res = await fetch(app.mcpUrl, { headers: { accept: 'text/event-stream' }, signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    ac.abort();
  });

  it('forwards malformed frames unchanged in both directions and records them as invalid', async () => {
    const app = await tapFor('/malformed');
    const res = await post(app.mcpUrl, rpc(1));
    expect(await res.text()).toBe('{"jsonrpc":"2.0","id":1,"result":');
    const bad = '{"jsonrpc": "2.0", "id": 2, "method": }';
    await post(app.mcpUrl, bad);
    expect(upstream.received.at(-1)!.body.toString()).toBe(bad);
    await settled(app);
    const frames = allFrames(app);
    expect(frames.map((f) => f.raw)).toEqual(expect.arrayContaining(['{"jsonrpc":"2.0","id":1,"result":', bad]));
    const statuses = app.store.exchanges(10).map((e) => e.status);
    expect(statuses).toEqual(expect.arrayContaining(['invalid']));
  });

  it('passes a 24 MB response and a 24 MB request byte for byte', async () => {
    const app = await tapFor('/big');
    const res = await post(app.mcpUrl, rpc(1));
    const got = Buffer.from(await res.arrayBuffer());
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(got.length).toBe(upstream.bigBody.length);
    expect(sha(got)).toBe(sha(upstream.bigBody));
    const echo = await tapFor('/echo');
    const big = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'upload', arguments: { blob: 'é'.repeat(12 * 1024 * 1024) } } });
    const answer = (await (await post(echo.mcpUrl, big)).json()) as { result: { bytes: number } };
    expect(answer.result.bytes).toBe(Buffer.byteLength(big));
    expect(sha(upstream.received.at(-1)!.body)).toBe(sha(Buffer.from(big)));
    await settled(app);
    expect(allFrames(app).find((f) => f.direction === 's2c')!.raw.length).toBe(upstream.bigBody.length);
  });
});

describe('transparency', () => {
  it.each([202, 400, 401, 403, 404, 405, 406, 409, 415])('passes status %i with its reason phrase, headers and body', async (code) => {
    const app = await tapFor(`/status/${code}`);
    const { request } = await import('node:http');
    const port = new URL(app.tapUrl).port;
    const res = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      request({ host: '127.0.0.1', port, path: `/status/${code}`, method: 'POST', headers: { 'content-type': 'application/json' } }, resolve).end(rpc(1));
    });
    let body = '';
    for await (const c of res) body += c;
    expect(res.statusCode).toBe(code);
    expect(res.statusMessage).toBe('Custom Reason');
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.headers['mcp-session-id']).toBe('S-1');
    expect(body).toBe(code === 202 ? '' : JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `status ${code}` } }));
  });

  it('forwards 2026-07-28 headers untouched, sets X-Forwarded-*, and keys stateless sessions by client identity', async () => {
    const app = await tapFor('/echo');
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '2.0' } };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'forecast', 'mcp-param-region': '=?base64?w4lsZQ==?=', 'mcp-param-x-unknown': 'kept', 'user-agent': 'openai-mcp/1.0.0', traceparent: '00-abc-def-01', authorization: 'Bearer s3cret-token-value' };
    const res = await post(app.mcpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forecast', arguments: {}, _meta: meta } }), headers);
    const seen = ((await res.json()) as { result: { headers: Record<string, string> } }).result.headers;
    for (const [name, value] of Object.entries(headers)) expect(seen[name]).toBe(value);
    expect(seen.host).toBe(new URL(upstream.origin).host);
    expect(seen['x-forwarded-host']).toBe(new URL(app.tapUrl).host);
    expect(seen['x-forwarded-proto']).toBe('http');
    await settled(app);
    const [session] = app.store.sessions();
    expect(session).toMatchObject({ sessionKey: 'client:openai-mcp/1.0.0 probe/2.0', clientLabel: 'ChatGPT', protocolVersion: '2026-07-28' });
    // The upstream echoes headers in its body (that is its business); the tap's own record of them is redacted.
    expect(JSON.stringify(allFrames(app).map((f) => f.http))).not.toContain('s3cret-token-value');
  });

  it('rewrites a Location on the upstream origin and does not follow it', async () => {
    const app = await tapFor('/redirect');
    const res = await fetch(`${app.tapUrl}/redirect`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${app.tapUrl}/elsewhere?x=1`);
  });

  it('rewrites an absolute legacy endpoint to the public URL with its path prefix, sessionId byte for byte', async () => {
    const app = await tapFor('/sse-legacy', { publicUrl: 'https://tunnel.example/prefix/' });
    const res = await fetch(app.mcpUrl, { headers: { accept: 'text/event-stream' } });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('"result"')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toBe(`: hello\n\nevent: endpoint\ndata: https://tunnel.example/prefix/api/messages?sessionId=a%2Bb~C&x=1\n\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
    // The message endpoint is now an MCP path of that session.
    await post(`${app.tapUrl}/api/messages?sessionId=a%2Bb~C&x=1`, rpc(4));
    await settled(app);
    const c2s = allFrames(app).filter((f) => f.direction === 'c2s' && f.kind === 'data');
    expect(c2s).toEqual([expect.objectContaining({ sessionKey: 'a+b~C', transport: 'legacy-sse' })]);
  });
});
