// A real OAuth connection through the tap, seen at the door: the official SDK client's OAuth
// support against an MCP server built from the SDK's server-side auth helpers. Every step —
// discovery, registration, authorization with PKCE, token, authenticated tools/call — is a door
// record, and the connection flow tells it green. Three broken servers each show their red step,
// and nothing recorded anywhere holds a raw secret: the SQLite file, the WebSocket, every export
// (JSONL, HAR, curl), the OTLP spans (bodies on) and the capture as the agent MCP server reads it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Mcpscope, StartOptions } from '../src/compose/start-mcpscope.js';
import { resolveOtlpConfig } from '../src/otlp/otlp-config.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { freePort } from './support/free-port.js';
import { runOAuthFlow, type OAuthRun } from './support/oauth-client.js';
import { startSdkOAuthServer, type OAuthFlaw, type SdkOAuthServer } from './support/oauth-sdk-server.js';
import { allRequests, flows, stepChecks } from './support/door-flows.js';
import { apiFetch } from './support/api.js';
import { agentOverHttp, call } from './support/agent-client.js';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js';

interface World {
  server: SdkOAuthServer;
  app: Mcpscope;
  publicMcpUrl: string;
}

/** An SDK OAuth server behind mcpscope; both know the tap by the same public URL. */
async function world(flaw?: OAuthFlaw, db = ':memory:', more: StartOptions = {}): Promise<World> {
  const port = await freePort();
  // "localhost" stands in for a tunnel's host: the client knows the server only by this URL.
  const publicOrigin = `http://localhost:${port}`;
  const server = await startSdkOAuthServer({ publicOrigin, ...(flaw ? { flaw } : {}) });
  const app = await startTestMcpscope({ ...more, target: server.mcpUrl, port, publicUrl: publicOrigin, db });
  return { server, app, publicMcpUrl: app.publicMcpUrl! };
}

async function stop(w: World | undefined): Promise<void> {
  await w?.app.close();
  await w?.server.close();
}

describe('a good OAuth connection through the tap', () => {
  let w: World;
  let run: OAuthRun;
  let dbFile: string;
  const socketMessages: string[] = [];
  let socket: WebSocket;
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    dbFile = join(mkdtempSync(join(tmpdir(), 'mcpscope-door-')), 'capture.db');
    receiver = await startOtlpReceiver();
    const otlp = resolveOtlpConfig({ otlp: receiver.origin, otlpBodies: true }, { OTEL_BSP_SCHEDULE_DELAY: '10' });
    if (!otlp.ok || !otlp.config) throw new Error('OTLP configuration refused');
    w = await world(undefined, dbFile, { otlp: otlp.config });
    socket = new WebSocket(`${w.app.dashboardUrl.replace('http', 'ws')}/ws?after=0&requestsRev=0`, ['mcpscope', `mcpscope.token.${w.app.token}`]);
    socket.on('message', (data) => socketMessages.push(String(data)));
    await new Promise((resolve) => socket.once('open', resolve));
    run = await runOAuthFlow(w.publicMcpUrl);
    if (run.error) throw run.error;
    await run.client!.listTools();
    const result = await run.client!.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: `authorised as ${run.provider.info!.client_id}` }]);
    await run.client!.close();
    await settled(w.app);
    await new Promise((resolve) => setTimeout(resolve, 150)); // the hub flushes every 50 ms
  });
  afterAll(async () => {
    socket?.close();
    await stop(w);
    await receiver?.close();
  });

  it('records every step at the door and tells it as one green story', async () => {
    const all = await flows(w.app);
    expect(all).toHaveLength(1);
    const flow = all[0]!;
    const checks = stepChecks(flow);
    // The SDK discovers again before it exchanges the code: the story says so.
    expect(checks.slice(0, 8)).toEqual(['green:challenge', 'green:prm', 'green:asm', 'green:registration', 'green:authorization', 'green:prm', 'green:asm', 'green:token']);
    // The GET stream opens beside the first requests; the order of the rest is the client's.
    const mcp = checks.slice(8).filter((c) => c !== 'green:mcp-stream');
    expect(mcp).toEqual(['green:initialize', 'green:tools-list', 'green:mcp-calls']);
    expect(checks.every((c) => c.startsWith('green:'))).toBe(true);
    expect(flow.verdict).toEqual({ kind: 'connected', sentence: 'connected (2025-11-25)' });
    expect(flow.label).toBe('oauth-test 1');
    const token = flow.steps.find((s) => s.check === 'token')!;
    expect(token.reason).toMatch(/^Token issued for authorization_code: Bearer, expires in 3600 s/);
    expect(flow.steps.find((s) => s.check === 'mcp-calls')!.reason).toContain('1 tools/call');
  });

  it('keeps the OAuth bodies, secrets redacted, and links MCP requests to their frames', async () => {
    const records = await allRequests(w.app);
    const tokenRecord = records.find((r) => r.path === '/token')!;
    expect(tokenRecord.requestBody!.text).toMatch(/code_verifier=%5Bredacted%5D%20\(\d+%20chars\)/);
    expect(tokenRecord.responseBody!.text).toMatch(/"access_token":"\[redacted\] \(\d+ chars\)"/);
    const authorize = records.find((r) => r.path.startsWith('/authorize'))!;
    expect(authorize.responseHeaders.location).toContain('code=%5Bredacted%5D');
    const call = records.find((r) => r.mcp && r.frameSeqs?.some((seq) => w.app.store.exchange(String(seq))?.method === 'tools/call'))!;
    expect(call.requestHeaders.authorization).toMatch(/^Bearer \[redacted\] \(\d+ chars\)$/);
    expect(call.mcpSessionId).toBeDefined();
    // Both ways: the record lists its frames, and each frame names its record.
    expect(w.app.store.framesBySeq(call.frameSeqs!).every((f) => f.http?.path === '/mcp' && f.http.requestId === call.id)).toBe(true);
  });

  it('streams the records live over the WebSocket', () => {
    const updates = socketMessages.map((m) => JSON.parse(m) as { type: string; requests?: { path: string }[] }).filter((m) => m.type === 'requests/update');
    const paths = new Set(updates.flatMap((m) => m.requests!.map((r) => r.path.split('?')[0])));
    for (const path of ['/mcp', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/register', '/authorize', '/token']) expect(paths).toContain(path);
  });

  it('stores no raw secret anywhere: the capture file, the WebSocket, every export', async () => {
    const secrets = [...w.server.issuedTokens(), run.provider.saved!.access_token, run.code!, run.provider.verifier].filter((s) => s.length >= 16);
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    const exports: string[] = [];
    for (const query of ['format=jsonl', 'format=har', 'format=jsonl&unredacted=1', 'format=har&unredacted=1']) {
      const res = await apiFetch(w.app, `/api/export?${query}`);
      expect(res.status, query).toBe(200);
      exports.push(await res.text());
    }
    // curl exports one request each: every client request, the bearer's tools/call among them.
    const requests = w.app.store.exchanges(500).filter((e) => e.requester === 'client');
    for (const ex of requests) {
      for (const query of [`format=curl&exchange=${ex.id}`, `format=curl&exchange=${ex.id}&unredacted=1`]) {
        const res = await apiFetch(w.app, `/api/export?${query}`);
        expect(res.status, `${query} (${ex.method})`).toBe(200);
        exports.push(await res.text());
      }
    }
    expect(exports.some((e) => e.startsWith('curl') && e.includes('tools/call') && e.includes('authorization'))).toBe(true);
    // Spans of every exchange, bodies included (the authenticated tools/call among them).
    const spans = await receiver.waitFor(1, (s) => JSON.stringify(s.attributes).includes('whoami'));
    expect(spans.length).toBeGreaterThan(0);
    const otlp = JSON.stringify(receiver.spans, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    // The capture as a coding agent reads it: every exchange, frames and HTTP layer.
    const agent = await agentOverHttp(w.app.dashboardUrl, w.app.token);
    const agentText: string[] = [];
    const found = await call<{ exchanges: { id: string }[] }>(agent, 'search_exchanges', { filter: '' });
    agentText.push(JSON.stringify(found));
    for (const ex of found.structuredContent.exchanges) agentText.push(JSON.stringify(await call(agent, 'get_exchange', { id: ex.id })));
    await agent.close();
    w.app.pipeline.flush();
    w.app.store.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(dbFile).toString('latin1');
    const haystacks = { file, socket: socketMessages.join('\n'), exports: exports.join('\n'), otlp, agent: agentText.join('\n') };
    for (const [where, text] of Object.entries(haystacks)) {
      for (const secret of secrets) {
        const at = text.indexOf(secret);
        expect(at, `${where} holds a secret: …${text.slice(Math.max(0, at - 200), at + secret.length + 50)}…`).toBe(-1);
      }
    }
    // The exports carry the door records too.
    expect(exports[0]).toContain('"type":"request"');
    expect(exports[1]).toContain('/.well-known/oauth-authorization-server');
  });
});

describe('broken servers show their red step', () => {
  let w: World | undefined;
  afterAll(() => stop(w));

  it.each([
    ['wrong-resource', 'prm-resource-mismatch', /does not match/, 'names resource https://mcp.example.com/mcp, but the client reached the server at'],
    ['no-s256', 'no-s256', /code challenge method S256/, 'without S256'],
    ['no-www-authenticate', 'unauthorized-without-challenge', undefined, 'without WWW-Authenticate'],
  ] as const)('%s → %s', async (flaw, check, sdkError, reason) => {
    await stop(w);
    w = await world(flaw);
    const run = await runOAuthFlow(w.publicMcpUrl);
    if (sdkError) expect(run.error?.message).toMatch(sdkError);
    else {
      // The SDK guesses the well-known URL and gets through; the 401 is still a violation.
      expect(run.error).toBeUndefined();
      await run.client!.close();
    }
    const [flow] = await flows(w.app);
    const red = flow!.steps.find((s) => s.check === check)!;
    expect(red, stepChecks(flow!).join(' ')).toBeDefined();
    expect(red.colour).toBe('red');
    expect(red.reason).toContain(reason);
    expect(red.records.length).toBeGreaterThan(0);
    if (sdkError) expect(flow!.verdict.kind).toBe('failed');
    else expect(flow!.verdict.sentence).toMatch(/^connected \(2025-11-25\), with 1 problem/);
  });
});
