// 2026-07-28 (stateless) replays: Mcp-Method, Mcp-Name and Mcp-Param-* must follow the edited
// body, or a conforming server answers 400 / -32020 HeaderMismatch. The upstream here is a small
// modern-era server that checks exactly that.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeDetail, ReplayResponse } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api } from './replay-helpers.js';

const VERSION = '2026-07-28';
const TOOL_SCHEMA = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, city: { type: 'string' } }, required: ['region', 'city'] };
const TOOLS = [
  { name: 'forecast', inputSchema: TOOL_SCHEMA },
  { name: 'alerts', inputSchema: TOOL_SCHEMA },
];

const decode = (v: string | undefined) => {
  const m = v === undefined ? null : /^=\?base64\?(.*)\?=$/.exec(v);
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : v;
};

let upstream: Server;
let app: Mcpscope;
const seen: IncomingHttpHeaders[] = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a wire body, checked field by field
type Body = Record<string, any>;

function mismatch(headers: IncomingHttpHeaders, body: Body): string | undefined {
  const meta = body.params?._meta ?? {};
  if (headers['mcp-protocol-version'] !== meta['io.modelcontextprotocol/protocolVersion']) return 'MCP-Protocol-Version';
  if (headers['mcp-method'] !== body.method) return 'Mcp-Method';
  if (body.method === 'tools/call') {
    if (headers['mcp-name'] !== body.params.name) return 'Mcp-Name';
    if (decode(headers['mcp-param-region'] as string | undefined) !== body.params.arguments?.region) return 'Mcp-Param-Region';
  }
  return undefined;
}

beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    seen.push(req.headers);
    const bad = mismatch(req.headers, body);
    const reply = (status: number, payload: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...payload as object }));
    if (bad) return reply(400, { error: { code: -32020, message: `HeaderMismatch: ${bad}` } });
    if (body.method === 'tools/list') return reply(200, { result: { tools: TOOLS } });
    if (body.method === 'tools/call') {
      const { city, region } = body.params.arguments;
      return reply(200, { result: { content: [{ type: 'text', text: `${body.params.name} for ${city} (${region})` }] } });
    }
    return reply(404, { error: { code: -32601, message: 'Method not found' } });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  app = await startTestMcpscope({ target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp` });
});
afterAll(async () => {
  await app.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'modern-client', version: '1.0.0' } };

async function post(body: Body, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(app.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': body.method, 'user-agent': 'modern-client/1.0', ...extra },
    body: JSON.stringify(body),
  });
}

async function capturedCall(): Promise<string> {
  expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } })).status).toBe(200);
  const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'forecast', arguments: { region: 'eu', city: 'Paris' }, _meta: meta } }, { 'mcp-name': 'forecast', 'mcp-param-region': 'eu' });
  expect(res.status).toBe(200);
  await settled(app);
  return app.store.exchanges(10).find((e) => e.target === 'forecast')!.id;
}

describe('replay in the 2026-07-28 era', () => {
  it('recomputes Mcp-Method, Mcp-Name and Mcp-Param-* from the edited body (non-ASCII as base64)', async () => {
    const originalId = await capturedCall();
    const edited = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'alerts', arguments: { region: 'Île-de-France', city: 'Paris' }, _meta: meta } };
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'session', message: edited });
    expect(status).toBe(200);
    expect(body.exchange).toMatchObject({ status: 'ok', target: 'alerts', replayOf: originalId });
    const sent = seen[seen.length - 1]!;
    expect(sent).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'alerts', 'mcp-protocol-version': VERSION, 'mcp-param-region': `=?base64?${Buffer.from('Île-de-France').toString('base64')}?=` });
    expect(sent['mcp-session-id']).toBeUndefined();
    const detail = (await api<ExchangeDetail>(app, `/api/exchanges/${body.exchange.id}`)).body;
    expect(detail.frames.at(-1)!.raw).toContain('alerts for Paris (Île-de-France)');
  });

  it('a fresh replay needs no handshake: the request alone, with its own _meta', async () => {
    const originalId = await capturedCall();
    const before = seen.length;
    const edited = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'forecast', arguments: { region: 'us', city: 'Boston' }, _meta: meta } };
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: originalId, mode: 'fresh', message: edited });
    expect(status).toBe(200);
    expect(body.exchange).toMatchObject({ status: 'ok', target: 'forecast' });
    expect(seen.length - before).toBe(1);
    expect(seen.at(-1)).toMatchObject({ 'mcp-param-region': 'us', 'mcp-name': 'forecast' });
  });

  it('copy as curl carries the recomputed headers', async () => {
    const originalId = await capturedCall();
    const edited = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'alerts', arguments: { region: 'eu', city: 'Oslo' }, _meta: meta } };
    const { body } = await api<{ command: string }>(app, '/api/replay/curl', { exchangeId: originalId, message: edited });
    expect(body.command).toContain(`-H 'mcp-name: alerts'`);
    expect(body.command).toContain(`-H 'mcp-param-region: eu'`);
    expect(body.command).toContain(`-H 'mcp-method: tools/call'`);
    expect(body.command).toContain(`-H 'mcp-protocol-version: ${VERSION}'`);
  });
});
