// Imported sessions (`mcpscope import`, a HAR, the dashboard's import) were recorded elsewhere:
// no server holds them, so replaying into one is refused with a clear answer that offers a fresh
// session; copying it as curl still works, and so does a fresh replay of the same request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CurlResponse, ImportResponse, ReplayFailure, ReplayResponse } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { api } from './replay-helpers.js';

let app: Mcpscope;
let client: Client;
let importedId: string;
const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 90 } } };

beforeAll(async () => {
  app = await startTestMcpscope();
  client = await connectClient(app.mcpUrl);
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 90 } });
  await settled(app);
  // The capture's own export, imported back: the same traffic under `import:` sessions.
  const auth = { authorization: `Bearer ${app.token}` };
  const jsonl = await (await fetch(`${app.dashboardUrl}/api/export?format=jsonl`, { headers: auth })).text();
  const imported = await fetch(`${app.dashboardUrl}/api/import?name=yesterday.jsonl`, { method: 'POST', headers: auth, body: jsonl });
  expect(imported.status).toBe(200);
  const { report } = (await imported.json()) as ImportResponse;
  await settled(app);
  importedId = app.store.exchanges(100).find((e) => e.method === 'tools/call' && report.sessionKeys.includes(e.sessionKey))!.id;
});
afterAll(async () => {
  await client.close();
  await app.close();
});

describe('replaying an imported exchange', () => {
  it('into its session is refused: 409 imported_session, with a fresh session offered', async () => {
    const before = app.store.head();
    const { status, body } = await api<ReplayFailure>(app, '/api/replay', { exchangeId: importedId, mode: 'session', message });
    expect(status).toBe(409);
    expect(body).toEqual({ error: { code: 'imported_session', message: expect.stringContaining('imported from a file') }, retryWith: 'fresh' });
    expect(body.error.message).toContain('import:yesterday.jsonl:');
    // Nothing was sent, so nothing was captured.
    await settled(app);
    expect(app.store.head()).toBe(before);
  });

  it('still lets the user copy it as curl (a command sends nothing by itself)', async () => {
    const { status, body } = await api<CurlResponse>(app, '/api/replay/curl', { exchangeId: importedId, mode: 'session', message });
    expect(status).toBe(200);
    expect(body.command).toContain(`--data-raw '${JSON.stringify(message)}'`);
  });

  it('in a fresh session goes to the live server and is linked to the imported original', async () => {
    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: importedId, mode: 'fresh', message });
    expect(status).toBe(200);
    expect(body.exchange).toMatchObject({ status: 'ok', replayOf: importedId });
    expect(body.sessionKey.startsWith('import:')).toBe(false);
  });
});

// Issue 22, items 2 and 8: a file can hold any header name, in any case. Import keeps names as
// HTTP does (lower case, tokens only), so replay's filters see `Host`, `X-Forwarded-For` and a
// chosen `Mcp-Session-Id` for what they are, and a name that is shell code never gets in.
describe('headers of an imported file', () => {
  it('are lower-cased, non-headers dropped and reported, and a fresh replay sends none of the connection headers the file chose', async () => {
    const auth = { authorization: `Bearer ${app.token}` };
    const jsonl = await (await fetch(`${app.dashboardUrl}/api/export?format=jsonl`, { headers: auth })).text();
    const hostile = { Host: 'evil.test', 'X-Forwarded-For': '6.6.6.6', 'Mcp-Session-Id': 'attacker-chosen', 'X-Trace-Note': 'kept', 'x-$(touch pwned)': 'v', 'X-Split': 'a\r\nInjected: 1' };
    const edited = jsonl
      .split('\n')
      .map((line) => {
        if (!line.includes('tools/call') || !line.includes('"c2s"')) return line;
        const frame = JSON.parse(line) as { http: { requestHeaders: Record<string, string> } };
        frame.http.requestHeaders = { ...frame.http.requestHeaders, ...hostile };
        return JSON.stringify(frame);
      })
      .join('\n');
    const imported = await fetch(`${app.dashboardUrl}/api/import?name=hostile.jsonl`, { method: 'POST', headers: auth, body: edited });
    const { report } = (await imported.json()) as ImportResponse;
    expect(report.problems.map((p) => p.message).join(' ')).toMatch(/\d+ headers were dropped: not HTTP headers.*"x-\$\(touch pwned\)".*"X-Split"/);
    await settled(app);
    const original = app.store.exchanges(1000).find((e) => e.method === 'tools/call' && report.sessionKeys.includes(e.sessionKey))!;
    const stored = app.store.rawFramesAfter(original.requestSeq! - 1, 1)[0]!;
    expect(stored.http!.requestHeaders).toMatchObject({ host: 'evil.test', 'x-forwarded-for': '6.6.6.6', 'mcp-session-id': expect.stringContaining('attacker-chosen'), 'x-trace-note': 'kept' });
    expect(Object.keys(stored.http!.requestHeaders!).filter((n) => n !== n.toLowerCase() || n.includes('$'))).toEqual([]);

    const { status, body } = await api<ReplayResponse>(app, '/api/replay', { exchangeId: original.id, mode: 'fresh', message });
    expect(status).toBe(200);
    await settled(app);
    const sent = app.store.rawFramesAfter(0, 100_000).find((f) => f.transport === 'replay' && f.direction === 'c2s' && f.sessionKey === body.sessionKey && f.raw.includes('tools/call'))!;
    const headers = sent.http!.requestHeaders!;
    expect(headers['x-trace-note']).toBe('kept');
    expect(headers.host).toBeUndefined();
    expect(headers['x-forwarded-for']).toBeUndefined();
    expect(headers['mcp-session-id'] ?? '').not.toContain('attacker-chosen');
  });
});
