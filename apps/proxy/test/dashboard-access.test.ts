// Only the person who launched mcpscope may read the capture (CVE-2025-49596 was this, missed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import WebSocket from 'ws';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../src/api/access.js';

let app: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope();
});
afterAll(() => app.close());

// Every API route, including ones that do not exist: the token check comes before routing.
const API_ROUTES = ['/api/sessions', '/api/frames', '/api/frames?filter=status:err', '/api/frames/1/raw', '/api/exchanges', '/api/exchanges?filter=err', '/api/exchanges/1', '/api/no-such-route'];

function wsStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

describe('dashboard access', () => {
  it('answers health without a token, and says nothing else', async () => {
    const res = await fetch(`${app.dashboardUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it.each(API_ROUTES)('%s refuses a missing or wrong token with 401', async (route) => {
    expect((await fetch(app.dashboardUrl + route)).status).toBe(401);
    expect((await fetch(app.dashboardUrl + route, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
    const ok = await fetch(app.dashboardUrl + route, { headers: { authorization: `Bearer ${app.token}` } });
    expect([200, 404]).toContain(ok.status);
    expect(ok.headers.get('content-type')).not.toContain('text/html');
  });

  it.each(API_ROUTES)('%s refuses a foreign Host or Origin with 403, even with the token', async (route) => {
    const auth = { authorization: `Bearer ${app.token}` };
    const port = new URL(app.dashboardUrl).port;
    // undici does not let fetch override Host; use a raw request for that.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port, path: route, headers: { ...auth, host: `evil.example:${port}` } }, (res) => resolve(res.statusCode ?? 0)).end();
    });
    expect(status).toBe(403);
    expect((await fetch(app.dashboardUrl + route, { headers: { ...auth, origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('refuses the WebSocket without the token (401) and from a foreign origin (403)', async () => {
    const ws = app.dashboardUrl.replace('http', 'ws') + '/ws';
    expect(await wsStatus(ws)).toBe(401);
    expect(await wsStatus(`${ws}?token=${app.token}`, { origin: 'https://evil.example' })).toBe(403);
    expect(await wsStatus(`${ws}?token=${app.token}`, { origin: app.dashboardUrl })).toBe(101);
  });

  it('takes the WebSocket token as a subprotocol, so it need not sit in the URL', async () => {
    const url = app.dashboardUrl.replace('http', 'ws') + '/ws';
    const protocol = await new Promise<string>((resolve, reject) => {
      const ws = new WebSocket(url, [WS_PROTOCOL, WS_TOKEN_PREFIX + app.token], { origin: app.dashboardUrl });
      ws.on('open', () => {
        resolve(ws.protocol);
        ws.close();
      });
      ws.on('error', reject);
    });
    expect(protocol).toBe(WS_PROTOCOL);
    const wrong = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url, [WS_PROTOCOL, `${WS_TOKEN_PREFIX}not-the-token-at-all`]);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(wrong).toBe(401);
  });

  it('never echoes the token subprotocol in the handshake: it answers mcpscope, or none', async () => {
    const handshake = (protocols: string[]) =>
      new Promise<{ status: number; protocol: string | undefined }>((resolve, reject) => {
        const req = http.get(`${app.dashboardUrl}/ws`, { headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-protocol': protocols.join(', '), origin: app.dashboardUrl } });
        req.on('upgrade', (res, socket) => {
          socket.destroy();
          resolve({ status: res.statusCode ?? 0, protocol: res.headers['sec-websocket-protocol'] });
        });
        req.on('response', (res) => resolve({ status: res.statusCode ?? 0, protocol: res.headers['sec-websocket-protocol'] }));
        req.on('error', reject);
      });
    expect(await handshake([WS_TOKEN_PREFIX + app.token])).toEqual({ status: 101, protocol: undefined });
    expect(await handshake([WS_TOKEN_PREFIX + app.token, WS_PROTOCOL])).toEqual({ status: 101, protocol: WS_PROTOCOL });
  });

  it('refuses a token that differs only in its last character, or is a prefix', async () => {
    for (const token of [app.token.slice(0, -1) + (app.token.endsWith('A') ? 'B' : 'A'), app.token.slice(0, 20), `${app.token}x`]) {
      expect((await fetch(`${app.dashboardUrl}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    }
  });

  it('refuses to start the dashboard on a wildcard address unless told it is dangerous', async () => {
    await expect(startTestMcpscope({ uiHost: '0.0.0.0' })).rejects.toThrow(/wildcard|0\.0\.0\.0/);
  });

  it('sends a strict Content-Security-Policy', async () => {
    const res = await fetch(`${app.dashboardUrl}/api/health`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('serves no dashboard, API or token on the tap port', async () => {
    for (const path of ['/api/exchanges', '/api/health', '/ws', '/', '/index.html']) {
      const res = await fetch(app.tapUrl + path, { headers: { authorization: `Bearer ${app.token}` } });
      const text = await res.text();
      expect(text).not.toContain(app.token);
      expect(text).not.toContain('mcpscope</title>');
      expect(res.status).toBe(404); // forwarded to the demo upstream, which has only /mcp
    }
  });
});
