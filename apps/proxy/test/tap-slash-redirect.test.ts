// A server mounted the way Starlette mounts FastMCP and the Python SDK (support/slash-redirect-server.ts):
// `/mcp` answers 307 to `/mcp/`. With --target …/mcp, the official SDK client follows the redirect
// back through the tap. The calls it makes on `/mcp/` are recorded as MCP traffic, and each
// redirected POST is a transport row that says where the server sent it and what to point at.
// What the capture is then used for treats each call once, as the client made it: `verify`
// follows the redirect as the SDK client did, `mock` and "Re-run failed calls" leave out the
// redirected attempts that the client sent again, and a replay follows the redirect as well.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followedRedirects, markRedirectedNotifications, type ReplayResponse } from '@mcpscope/protocol';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runVerify } from '../src/commands/verify.js';
import { startMock } from '../src/compose/start-mock.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api } from './support/api.js';
import { startSlashRedirectServer, type SlashRedirectServer } from './support/slash-redirect-server.js';

let upstream: SlashRedirectServer;
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-slash-'));
const captureFile = join(dir, 'capture.db');

async function forecast(url: string): Promise<unknown> {
  const client = new Client({ name: 'slash-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const answer = await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
  await client.close();
  return answer.content;
}

async function verify(target: string, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const sink = (write: (s: string) => void) => new Writable({ write: (chunk, _e, done) => (write(String(chunk)), done()) });
  const code = await runVerify([captureFile, '--target', target, ...args], { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  upstream = await startSlashRedirectServer();
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a server that redirects /mcp to /mcp/', () => {
  it('records the calls made after the redirect, and says why each first POST got no answer', async () => {
    const app = await startTestMcpscope({ target: upstream.url, db: captureFile });
    try {
      expect(await forecast(app.mcpUrl)).toEqual([{ type: 'text', text: 'Sunny in Lyon' }]);
      await settled(app);

      const exchanges = app.store.exchanges(100).reverse();
      const calls = exchanges.filter((e) => e.method === 'tools/call');
      expect(calls.map((e) => [e.status, e.transportEvent])).toEqual([
        ['transport_error', 'redirected'],
        ['ok', undefined],
      ]);
      expect(calls[0]!.errorMessage).toContain('/mcp/');
      expect(calls[0]!.errorMessage).toMatch(/redirect/i);
      expect(exchanges.filter((e) => e.method === 'initialize').map((e) => e.status)).toEqual(['transport_error', 'ok']);
      // The POST sent again is a new request, not a reuse of an id still in flight.
      const diagnostics = exchanges.flatMap((e) => app.store.diagnosticsFor(e));
      expect(diagnostics.map((d) => d.code)).not.toContain('id-reused-in-flight');
      // Both doors are MCP requests: the redirected one and the one that was answered.
      const doors = app.store.door.page(null, 0, 100).requests.filter((r) => r.method === 'POST');
      expect(new Set(doors.map((r) => [r.path, r.status, r.mcp].join(' ')))).toEqual(new Set(['/mcp 307 true', '/mcp/ 200 true', '/mcp/ 202 true']));
      // Each redirected attempt was sent again, so none is a failed call of its own (what "Re-run failed calls" reads).
      // (The notification and the GET stream the server redirected are rows of their own, with no call to re-run.)
      const redirectedCalls = exchanges.filter((e) => e.kind === 'request' && e.transportEvent === 'redirected');
      expect(redirectedCalls.map((e) => e.method)).toEqual(['initialize', 'tools/call']);
      expect(followedRedirects(exchanges)).toEqual(new Set(redirectedCalls.map((e) => e.id)));
      // The redirected notifications/initialized: the tap's redirect row shares its HTTP request (one connectionId each).
      const frames = app.store.framesAfter(0, 100);
      const marked = markRedirectedNotifications(exchanges, (seq) => frames.find((f) => f.seq === seq));
      const notifications = marked.filter((e) => e.method === 'notifications/initialized');
      expect(notifications.map((e) => e.transportEvent)).toEqual(['redirected', undefined]);
      expect(followedRedirects(marked)).toEqual(new Set([...redirectedCalls, notifications[0]!].map((e) => e.id)));
    } finally {
      await app.close();
    }
  });

  it('a replay from the dashboard follows the redirect too, as the client did, while the tap itself never does', async () => {
    const app = await startTestMcpscope({ target: upstream.url });
    try {
      await forecast(app.mcpUrl);
      await settled(app);
      const redirected = app.store.exchanges(100).find((e) => e.method === 'tools/call' && e.transportEvent === 'redirected')!;
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forecast', arguments: { city: 'Lyon' } } };
      const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: redirected.id, mode: 'fresh', message });
      expect(status).toBe(200);
      expect(body.exchange.status).toBe('ok');
      // Through the tap, the same POST still gets the server's 307: the client sees what the server said.
      const res = await fetch(app.mcpUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":7,"method":"ping"}' });
      expect(res.status).toBe(307);
      // (The server builds its Location from the Host header, which the tap passes on as the client sent it.)
      expect(res.headers.get('location')).toBe(`${app.mcpUrl}/`);
    } finally {
      await app.close();
    }
  });

  it('verify against the same --target follows the redirect as the SDK client did, and checks each call once', async () => {
    const run = await verify(upstream.url, '--expect', 'ok');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/2 calls, 2 same, 0 regressed/);
    expect(run.stdout).not.toMatch(/transport error/);
    expect(run.stderr).toContain(`${upstream.url}/`);
    expect(run.stderr).toMatch(/followed it/);
    // Pointed at the address the server redirects to, the same two calls, and nothing to say about redirects in the run.
    const direct = await verify(`${upstream.url}/`);
    expect(direct.code).toBe(0);
    expect(direct.stdout).toMatch(/2 calls, 2 same, 0 regressed/);
    expect(direct.stderr).not.toMatch(/followed it/);
  });

  it('mock serves the calls as the client made them: the SDK session against it completes', async () => {
    const started = await startMock({ file: captureFile, port: 0 });
    if (!started.ok) throw new Error(started.message);
    try {
      expect(started.value.cassette.redirectsLeftOut).toBe(3);
      // The notification once, as the client made it after the redirect.
      const notes = started.value.cassette.sessions.flatMap((s) => s.steps.filter((step) => step.kind === 'notification'));
      expect(notes.map((step) => step.kind === 'notification' && step.notification.method)).toEqual(['notifications/initialized']);
      expect(started.value.cassette.calls.map((c) => [c.method, c.status])).toEqual([
        ['initialize', 'ok'],
        ['tools/call', 'ok'],
      ]);
      expect(await forecast(started.value.mcpUrl)).toEqual([{ type: 'text', text: 'Sunny in Lyon' }]);
    } finally {
      await started.value.close();
    }
  });
});
