// A tunnel client refused by the Host guard (mcpscope started without --public-url) is said where
// the user looks: one terminal line per newly refused Host with the flag to restart with, and a
// token-guarded dashboard API that accepts the Host for this run, without a restart, only when asked.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoorRecord, TapHostsResponse } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { startMcpscopeProcess, startTestMcpscope, type RunningMcpscope } from './support/mcpscope.js';
import { api, apiFetch, apiGet } from './support/api.js';
import { eventually } from './reliability/harness.js';

const TUNNEL = 'brave-otter.trycloudflare.com';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openai-mcp', version: '1.0.0' } } });

/** ChatGPT's POST as a tunnel delivers it: the tunnel's Host, ChatGPT's User-Agent. */
function tunnelPost(tapUrl: string, host = TUNNEL): Promise<number> {
  const url = new URL(tapUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { host, 'user-agent': 'openai-mcp/1.0.0', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(INIT);
  });
}

describe('the terminal says a refused Host once, with the flag to restart with', () => {
  let child: RunningMcpscope;
  beforeAll(async () => {
    child = await startMcpscopeProcess(['--db', ':memory:']);
  });
  afterAll(() => child?.stop());

  it('prints one line per newly refused Host naming the client, its address and --public-url https://HOST', async () => {
    for (let i = 0; i < 3; i++) expect(await tunnelPost(child.tapUrl)).toBe(403);
    expect(await tunnelPost(child.tapUrl, 'other-lynx.trycloudflare.com')).toBe(403);
    await eventually(async () => (child.stderr().includes('other-lynx') ? true : undefined), 'the second Host’s line');
    const lines = child.stderr().split('\n').filter((l) => l.includes(TUNNEL));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ChatGPT (openai-mcp/1.0.0)');
    expect(lines[0]).toContain('127.0.0.1');
    expect(lines[0]).toContain(`restart with --public-url https://${TUNNEL}`);
    expect(lines[0]).toContain('accept the Host for this run in the dashboard');
  });
});

describe('the dashboard accepts a refused Host for this run', () => {
  let app: Mcpscope;
  beforeAll(async () => {
    app = await startTestMcpscope();
  });
  afterAll(() => app?.close());

  it('lists the refused Host with the fix, accepts it only through the token-guarded POST, and lets its next request in', async () => {
    expect(await tunnelPost(app.tapUrl)).toBe(403);
    const record = await eventually(async () => (await apiGet<{ refusals: { requestId: number }[] }>(app, '/api/requests/refused')).refusals[0], 'the refusal');
    const stored = await apiGet<DoorRecord>(app, `/api/requests/${record.requestId}`);
    expect(stored.refusals?.refusedHost).toEqual({ host: TUNNEL, fix: `--public-url https://${TUNNEL}` });
    expect(stored.userAgent).toBe('openai-mcp/1.0.0');

    // Nothing accepts it by itself.
    expect((await apiGet<TapHostsResponse>(app, '/api/tap/hosts')).accepted).toEqual([]);
    expect(await tunnelPost(app.tapUrl)).toBe(403);

    // Without the token, from another origin, or as a form: refused.
    expect((await api(app, '/api/tap/hosts', { host: TUNNEL }, 'wrong-token')).status).toBe(401);
    const crossSite = await apiFetch(app, '/api/tap/hosts', { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: JSON.stringify({ host: TUNNEL }) });
    expect(crossSite.status).toBe(403);
    const form = await apiFetch(app, '/api/tap/hosts', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `host=${TUNNEL}` });
    expect(form.status).toBe(400);
    expect((await api(app, '/api/tap/hosts', { host: 'localhost:1' })).status).toBe(400);
    expect((await api(app, '/api/tap/hosts', { host: 'a/b?c' })).status).toBe(400);
    expect(await tunnelPost(app.tapUrl)).toBe(403);

    const accepted = await api<TapHostsResponse>(app, '/api/tap/hosts', { host: TUNNEL });
    expect(accepted).toEqual({ status: 200, body: { accepted: [TUNNEL] } });
    expect(await tunnelPost(app.tapUrl)).toBe(200);
    // Only that Host: another tunnel name is still refused.
    expect(await tunnelPost(app.tapUrl, 'other-lynx.trycloudflare.com')).toBe(403);
  });
});
