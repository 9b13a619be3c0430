// The tap's own DNS-rebinding guard (it rewrites Host, so the upstream cannot guard any more)
// and CORS for browser clients such as the MCP Inspector.
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { startTestMcpscope } from './support/mcpscope.js';

let app: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope({ publicUrl: 'https://abc.trycloudflare.com', allowHosts: ['mcp.internal.example'] });
});
afterAll(() => app?.close());

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'guard-test', version: '1' } } });

/** A raw request, because fetch may not set Host. */
function send(method: string, headers: Record<string, string>, body?: string): Promise<{ res: IncomingMessage; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: new URL(app.tapUrl).port, path: '/mcp', method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, async (res) => {
      let text = '';
      for await (const c of res) text += c;
      resolve({ res, text });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('tap guard', () => {
  it('refuses a foreign Host with 403 and says how to allow a tunnel', async () => {
    const { res, text } = await send('POST', { host: 'evil.example:7788' }, INIT);
    expect(res.statusCode).toBe(403);
    expect(text).toContain('--public-url');
  });

  it.each(['abc.trycloudflare.com', 'mcp.internal.example', 'mcp.internal.example:443', `localhost:${9}`, '127.0.0.1'])('accepts Host %s', async (host) => {
    const { res } = await send('POST', { host }, INIT);
    expect(res.statusCode).toBe(200);
  });

  it('refuses a foreign Origin on a loopback Host (a web page attacking localhost), accepts a local one', async () => {
    expect((await send('POST', { host: 'localhost', origin: 'https://evil.example' }, INIT)).res.statusCode).toBe(403);
    expect((await send('POST', { host: 'localhost', origin: 'http://localhost:6274' }, INIT)).res.statusCode).toBe(200);
  });

  it('accepts any Origin on the public host: that request came through the tunnel on purpose', async () => {
    expect((await send('POST', { host: 'abc.trycloudflare.com', origin: 'https://chatgpt.com' }, INIT)).res.statusCode).toBe(200);
  });
});

describe('CORS', () => {
  it('answers preflights itself, allowing the MCP headers and any Mcp-Param-*', async () => {
    const { res } = await send('OPTIONS', { host: 'localhost', origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-param-region, content-type' });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect(res.headers['access-control-allow-headers']).toContain('mcp-session-id');
    expect(res.headers['access-control-allow-headers']).toContain('mcp-param-region');
    expect(res.headers['access-control-allow-methods']).toContain('DELETE');
  });

  it('exposes Mcp-Session-Id, MCP-Protocol-Version and WWW-Authenticate on responses to a browser', async () => {
    const { res } = await send('POST', { host: 'localhost', origin: 'http://localhost:6274' }, INIT);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['mcp-session-id', 'mcp-protocol-version', 'www-authenticate']));
    expect(res.headers['mcp-session-id']).toBeTruthy();
  });
});
