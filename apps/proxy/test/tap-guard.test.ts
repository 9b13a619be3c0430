// The tap's own DNS-rebinding guard (it rewrites Host, so the upstream cannot guard any more)
// and CORS for browser clients such as the MCP Inspector. Issue 22 items 1 and 7: no web page
// may drive the server through a loopback tap (not by `Origin: null`, not from another local
// port unless allowed), whatever address the tap is bound to.
import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { canonicalHost, isLoopbackAddress, isWildcardAddress, urlHostOf } from '../src/core/addresses.js';
import { createGuard } from '../src/tap/http/tap-guard.js';
import { startTestMcpscope } from './support/mcpscope.js';

let app: Mcpscope;
let allowing: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope({ publicUrl: 'https://abc.trycloudflare.com', allowHosts: ['mcp.internal.example'] });
  allowing = await startTestMcpscope({ allowOrigins: ['http://localhost:6274'] });
});
afterAll(async () => {
  await app?.close();
  await allowing?.close();
});

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'guard-test', version: '1' } } });

/** A raw request, because fetch may not set Host or Origin. */
function send(method: string, headers: Record<string, string>, body?: string, tapUrl = app.tapUrl): Promise<{ res: IncomingMessage; text: string }> {
  const url = new URL(tapUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, path: '/mcp', method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, async (res) => {
      let text = '';
      for await (const c of res) text += c;
      resolve({ res, text });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PREFLIGHT = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id' };

describe('tap guard: Host', () => {
  it('refuses a foreign Host with 403 and says how to allow a tunnel', async () => {
    const { res, text } = await send('POST', { host: 'evil.example:7788' }, INIT);
    expect(res.statusCode).toBe(403);
    expect(text).toContain('--public-url');
  });

  it.each(['abc.trycloudflare.com', 'mcp.internal.example', 'mcp.internal.example:443', `localhost:${9}`, '127.0.0.1', '[0:0:0:0:0:0:0:1]:7788', '127.1', '[::ffff:127.0.0.1]'])('accepts Host %s', async (host) => {
    const { res } = await send('POST', { host }, INIT);
    expect(res.statusCode).toBe(200);
  });

  it.each(['w-abc.localhost:7788', '127.0.0.1.evil.example', 'localhost.evil'])('refuses Host %s (a name that is not loopback)', async (host) => {
    expect((await send('POST', { host }, INIT)).res.statusCode).toBe(403);
  });
});

describe('tap guard: Origin on a loopback Host', () => {
  it('refuses Origin: null (any page can send it from a sandboxed iframe), says how to allow a real origin, and never allows null in CORS', async () => {
    for (const host of ['localhost', '127.0.0.1', `127.0.0.1:${new URL(app.tapUrl).port}`]) {
      const post = await send('POST', { host, origin: 'null' }, INIT);
      expect(post.res.statusCode).toBe(403);
      expect(post.text).toContain('--allow-origin');
      expect(post.res.headers['access-control-allow-origin']).toBeUndefined();
      const pre = await send('OPTIONS', { host, origin: 'null', ...PREFLIGHT });
      expect(pre.res.statusCode).toBe(403);
      expect(pre.res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('refuses a foreign Origin (a web page attacking localhost) and names the flag that would allow it', async () => {
    const { res, text } = await send('POST', { host: 'localhost', origin: 'https://evil.example' }, INIT);
    expect(res.statusCode).toBe(403);
    expect(text).toContain('--allow-origin https://evil.example');
  });

  it('refuses a page from another local port (another app, a widget sandbox) unless --allow-origin names it', async () => {
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:5173', 'http://w-abc.localhost:7790']) {
      const { res, text } = await send('POST', { host: 'localhost', origin }, INIT);
      expect(res.statusCode, origin).toBe(403);
      expect(text).toContain(`--allow-origin ${origin}`);
    }
    const allowed = await send('POST', { host: 'localhost', origin: 'http://localhost:6274' }, INIT, allowing.tapUrl);
    expect(allowed.res.statusCode).toBe(200);
    expect(allowed.res.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    // Exactly that origin: another port of the same host is still refused.
    expect((await send('POST', { host: 'localhost', origin: 'http://localhost:6275' }, INIT, allowing.tapUrl)).res.statusCode).toBe(403);
  });

  it("accepts the tap's own origin by any loopback name (pages the upstream serves through the tap)", async () => {
    const port = new URL(app.tapUrl).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]) {
      expect((await send('POST', { host: `127.0.0.1:${port}`, origin }, INIT)).res.statusCode, origin).toBe(200);
    }
    expect((await send('POST', { host: `127.0.0.1:${port}`, origin: `https://localhost:${port}` }, INIT)).res.statusCode).toBe(403);
  });

  it('accepts any Origin on the public host: that request came through the tunnel on purpose, but never allows null', async () => {
    expect((await send('POST', { host: 'abc.trycloudflare.com', origin: 'https://chatgpt.com' }, INIT)).res.statusCode).toBe(200);
    const opaque = await send('POST', { host: 'abc.trycloudflare.com', origin: 'null' }, INIT);
    expect(opaque.res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await send('OPTIONS', { host: 'abc.trycloudflare.com', origin: 'null', ...PREFLIGHT });
    expect(pre.res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('tap guard on a non-loopback bind (item 7)', () => {
  it('keeps the Origin check for loopback Host names and addresses, and accepts addresses (clients on the network)', () => {
    const guard = createGuard({ loopbackOnly: false, allowHosts: [] });
    expect(guard('127.0.0.1:7788', 'https://evil.example').ok).toBe(false);
    expect(guard('[0:0:0:0:0:0:0:1]:7788', 'https://evil.example').ok).toBe(false);
    expect(guard('localhost:7788', 'null').ok).toBe(false);
    expect(guard('localhost:7788', 'http://localhost:7788').ok).toBe(true);
    expect(guard('10.0.0.5:7788', undefined).ok).toBe(true);
    expect(guard('[fd00::5]:7788', undefined).ok).toBe(true);
    expect(guard('10.0.0.5:7788', 'http://10.0.0.5:7788').ok).toBe(true);
    // A page elsewhere posting to the machine's LAN address by plain CORS-less requests.
    expect(guard('10.0.0.5:7788', 'https://evil.example').ok).toBe(false);
    expect(guard('10.0.0.5:7788', 'http://10.0.0.6:7788').ok).toBe(false);
  });

  it('refuses a name it was not given (a DNS-rebinding page comes by a name of its own) and says to add --allow-host', () => {
    const guard = createGuard({ loopbackOnly: false, allowHosts: [] });
    const refused = guard('rebind.evil.example:7788', undefined);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.reason).toContain('--allow-host rebind.evil.example');
    expect(guard('build-box.lan:7788', undefined).ok).toBe(false);
    const allowing = createGuard({ loopbackOnly: false, allowHosts: ['build-box.lan'] });
    expect(allowing('build-box.lan:7788', undefined).ok).toBe(true);
    expect(allowing('build-box.lan:7788', 'https://inspector.example').ok).toBe(true);
    expect(allowing('other.lan:7788', undefined).ok).toBe(false);
  });

  it('keeps the Origin check on a loopback name even when --allow-host names it', () => {
    const guard = createGuard({ loopbackOnly: true, allowHosts: ['localhost'] });
    expect(guard('localhost:7788', 'https://evil.example').ok).toBe(false);
  });

  it('is so for a real tap bound to 0.0.0.0: a web page cannot use http://127.0.0.1:PORT by plain CORS', async () => {
    const wide = await startTestMcpscope({ host: '0.0.0.0' });
    try {
      expect(new URL(wide.tapUrl).hostname).toBe('127.0.0.1');
      const port = new URL(wide.tapUrl).port;
      const evil = await send('POST', { host: `127.0.0.1:${port}`, origin: 'https://evil.example' }, INIT, wide.tapUrl);
      expect(evil.res.statusCode).toBe(403);
      expect(evil.res.headers['access-control-allow-origin']).toBeUndefined();
      const pre = await send('OPTIONS', { host: `localhost:${port}`, origin: 'https://evil.example', ...PREFLIGHT }, undefined, wide.tapUrl);
      expect(pre.res.statusCode).toBe(403);
      expect((await send('POST', { host: `127.0.0.1:${port}` }, INIT, wide.tapUrl)).res.statusCode).toBe(200);
      const rebound = await send('POST', { host: `rebind.evil.example:${port}` }, INIT, wide.tapUrl);
      expect(rebound.res.statusCode).toBe(403);
      expect(rebound.text).toContain('--allow-host rebind.evil.example');
    } finally {
      await wide.close();
    }
  });

  it('names a tap bound to 0:0:0:0:0:0:0:1 by the address it listens on, and guards it as loopback', async () => {
    const v6 = await startTestMcpscope({ host: '0:0:0:0:0:0:0:1' });
    try {
      expect(new URL(v6.tapUrl).hostname).toBe('[::1]');
      expect((await send('POST', { host: new URL(v6.tapUrl).host }, INIT, v6.tapUrl)).res.statusCode).toBe(200);
      expect((await send('POST', { host: 'evil.example' }, INIT, v6.tapUrl)).res.statusCode).toBe(403);
    } finally {
      await v6.close();
    }
  });
});

describe('addresses', () => {
  it.each(['127.0.0.1', '127.8.9.10', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '[::ffff:7f00:1]', '127.1', '0x7f.1'])('%s is loopback', (a) => {
    expect(isLoopbackAddress(a)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'localhost.evil', 'w-a.localhost', '', 'a b'])('%s is not loopback', (a) => {
    expect(isLoopbackAddress(a)).toBe(false);
  });
  it.each(['0.0.0.0', '::', '[::]', '0', '*', '0:0:0:0:0:0:0:0', '::0'])('%s is a wildcard', (a) => {
    expect(isWildcardAddress(a)).toBe(true);
  });
  it('puts the address a listener is bound to in its URL', () => {
    expect(urlHostOf('0.0.0.0')).toBe('127.0.0.1');
    expect(urlHostOf('::')).toBe('127.0.0.1');
    expect(urlHostOf('::1')).toBe('[::1]');
    expect(urlHostOf('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(urlHostOf('192.168.1.5')).toBe('192.168.1.5');
    expect(canonicalHost('0:0:0:0:0:0:0:1')).toBe('[::1]');
  });
});

describe('CORS', () => {
  it('answers preflights itself for an allowed origin, allowing the MCP headers and any Mcp-Param-*', async () => {
    const { res } = await send('OPTIONS', { host: 'localhost', origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-param-region, content-type' }, undefined, allowing.tapUrl);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect(res.headers['access-control-allow-headers']).toContain('mcp-session-id');
    expect(res.headers['access-control-allow-headers']).toContain('mcp-param-region');
    expect(res.headers['access-control-allow-methods']).toContain('DELETE');
  });

  it('exposes Mcp-Session-Id, MCP-Protocol-Version and WWW-Authenticate on responses to a browser', async () => {
    const { res } = await send('POST', { host: 'localhost', origin: 'http://localhost:6274' }, INIT, allowing.tapUrl);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['mcp-session-id', 'mcp-protocol-version', 'www-authenticate']));
    expect(res.headers['mcp-session-id']).toBeTruthy();
  });
});
