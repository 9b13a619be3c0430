// A capture file's widget against a live server. Two real servers share a widget URI: the live
// one mcpscope proxies, and another whose traffic arrives only as an imported file (its widget's
// HTML and a destructive tool among its tools). The imported call's preview renders from its file
// alone and sends nothing (counted at the live server); the live call never takes the file's HTML;
// and no widget's tool call is sent before the user allowed it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ImportResponse, WidgetCallResponse, WidgetConsent, WidgetPreview } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { api as apiAt, apiFetch } from './support/api.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

const URI = 'ui://fixture/board.html';
const LIVE_HTML = '<p>the live board</p>';
const FILE_HTML = '<script>/* from the file */</script>';
const FILE_NAME = 'from_a%friend.jsonl';

type Failure = { error: { code: string; message: string } };
const api = <T = unknown>(app: Mcpscope, path: string, body?: unknown) => apiAt<T>(app, `/api${path}`, body);
const callOf = (app: Mcpscope, tool: string, imported: boolean) =>
  app.store.exchanges(1000).find((e) => e.method === 'tools/call' && e.target === tool && e.widgetOf === undefined && e.sessionKey.startsWith('import:') === imported)!;

let live: WidgetServer;
let other: WidgetServer;
let app: Mcpscope;
let client: Client;

beforeAll(async () => {
  const destructive = [{ name: 'delete_everything', meta: { 'openai/widgetAccessible': true } }];
  live = await startWidgetServer([{ tool: 'board', uri: URI, html: LIVE_HTML }], destructive);
  other = await startWidgetServer([{ tool: 'board', uri: URI, html: FILE_HTML }], destructive);
  // The file: a capture of the other server (its tools/list, a call, a read of the widget).
  const recorder = await startTestMcpscope({ target: other.url });
  const recorded = await connectClient(recorder.mcpUrl);
  await recorded.listTools();
  await recorded.callTool({ name: 'board', arguments: { from: 'the file' } });
  await recorded.readResource({ uri: URI });
  await recorded.close();
  await settled(recorder);
  const jsonl = await (await apiFetch(recorder, '/api/export?format=jsonl')).text();
  await recorder.close();

  app = await startTestMcpscope({ target: live.url });
  const imported = await apiFetch(app, `/api/import?name=${encodeURIComponent(FILE_NAME)}`, { method: 'POST', body: jsonl });
  expect(imported.status).toBe(200);
  expect(((await imported.json()) as ImportResponse).report.sessionKeys.length).toBeGreaterThan(0);
  client = await connectClient(app.mcpUrl);
  await client.listTools();
  await client.callTool({ name: 'board', arguments: { from: 'live' } });
  await settled(app);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
  await live?.close();
  await other?.close();
});

describe('an imported call’s widget', () => {
  it('renders from its own file and says so, and cannot call', async () => {
    const call = callOf(app, 'board', true);
    const { status, body } = await api<WidgetPreview>(app, `/widget/${call.id}`);
    expect(status).toBe(200);
    expect(body.resource).toMatchObject({ html: FILE_HTML, source: 'imported', importedFrom: FILE_NAME, sameSession: true });
    expect(body.canCall).toBe(false);
    expect(body.cannotCallReason).toContain(`imported from ${FILE_NAME}`);
    expect(body.server).toBeUndefined();
  });

  it('sends nothing upstream: read, call and consent are refused on the server', async () => {
    const call = callOf(app, 'board', true);
    const before = live.requestCount();
    const head = app.store.head();
    for (const [path, body] of [
      ['read', {}],
      ['consent', { tool: 'delete_everything' }],
      ['call', { bridge: 'openai', name: 'delete_everything', arguments: {}, mode: 'fresh' }],
      ['call', { bridge: 'mcp-apps', name: 'delete_everything', arguments: {}, mode: 'session' }],
    ] as const) {
      const refused = await api<Failure>(app, `/widget/${call.id}/${path}`, body);
      expect(refused.status, path).toBe(409);
      expect(refused.body.error).toEqual({ code: 'imported_session', message: expect.stringContaining('sends nothing to a live server') });
    }
    await settled(app);
    expect(live.requestCount()).toBe(before);
    expect(live.calls.get('delete_everything')).toBeUndefined();
    expect(app.store.head()).toBe(head);
  });
});

describe('a live call’s widget', () => {
  it('never takes HTML from an imported file: the preview has none, then reads it now from the live server', async () => {
    const call = callOf(app, 'board', false);
    const before = (await api<WidgetPreview>(app, `/widget/${call.id}`)).body;
    expect(before.resource).toBeUndefined();
    expect(before.lints.map((l) => l.code)).toContain('widget-uri-never-read');
    expect(before).toMatchObject({ canCall: true, server: live.url, allowedTools: [] });
    const read = await api<WidgetPreview>(app, `/widget/${call.id}/read`, {});
    expect(read.status).toBe(200);
    expect(read.body.resource).toMatchObject({ html: LIVE_HTML, source: 'read-now' });
    expect(read.body.resource!.importedFrom).toBeUndefined();
  });

  it('sends a tool call only after the user allowed that tool for this widget on this server', async () => {
    const call = callOf(app, 'board', false);
    const ask = { bridge: 'openai', name: 'delete_everything', arguments: { all: true }, mode: 'fresh' };
    const held = await api<Failure>(app, `/widget/${call.id}/call`, ask);
    expect(held.status).toBe(403);
    expect(held.body.error.code).toBe('widget_consent_needed');
    expect(held.body.error.message).toContain(`call delete_everything on ${live.url}`);
    await settled(app);
    expect(live.calls.get('delete_everything')).toBeUndefined();

    const granted = await api<WidgetConsent>(app, `/widget/${call.id}/consent`, { tool: 'delete_everything' });
    expect(granted.body).toEqual({ uri: URI, server: live.url, allowedTools: ['delete_everything'] });
    const sent = await api<WidgetCallResponse>(app, `/widget/${call.id}/call`, ask);
    expect(sent.status).toBe(200);
    expect(live.calls.get('delete_everything')).toBe(1);
    // Per tool: another tool of the same widget still asks.
    expect((await api<Failure>(app, `/widget/${call.id}/call`, { ...ask, bridge: 'mcp-apps', name: 'board' })).body.error.code).toBe('widget_consent_needed');
    expect((await api<WidgetPreview>(app, `/widget/${call.id}`)).body.allowedTools).toEqual(['delete_everything']);
  });

  it('cannot be granted without the dashboard token', async () => {
    const call = callOf(app, 'board', false);
    const forged = await apiAt(app, `/api/widget/${call.id}/consent`, { tool: 'board' }, 'not-the-token');
    expect(forged.status).toBe(401);
  });
});
