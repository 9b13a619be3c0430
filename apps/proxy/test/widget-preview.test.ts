// The widget preview API against the real demo server and a fixture server behind the tap: the
// preview carries the call exactly as captured and the widget's HTML (captured, or read now in a
// labelled session of mcpscope's own); the widget's calls reach the upstream, linked to the call
// whose widget made them, unless a host would refuse them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ownSessionKind, type ExchangeSummary, type SessionSummary, type WidgetCallResponse, type WidgetPreview } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { GIFT_WIDGET_HTML, GIFT_WIDGET_URI } from '../src/demo/gift-widget.js';
import { connectClient, settled } from './helpers.js';
import { api as apiAt } from './support/api.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startWidgetServer, type WidgetServer } from './support/widget-server.js';

/** The widget API (under /api) with the token. */
const api = <T = unknown>(app: Mcpscope, path: string, body?: unknown) => apiAt<T>(app, `/api${path}`, body);

/** The user's Allow in the dashboard: the widget of `callId` may call `tool` on this server. */
const allow = async (app: Mcpscope, callId: string, tool: string) => expect((await api(app, `/widget/${callId}/consent`, { tool })).status).toBe(200);

const lastCall = (app: Mcpscope, tool: string) => app.store.exchanges(1000).find((e) => e.method === 'tools/call' && e.target === tool && e.widgetOf === undefined)!;
const session = (app: Mcpscope, key: string) => app.store.sessions().find((s: SessionSummary) => s.sessionKey === key)!;

describe('the demo widget', () => {
  let app: Mcpscope;
  let client: Client;
  beforeAll(async () => {
    app = await startTestMcpscope();
    client = await connectClient(app.mcpUrl);
    await client.listTools();
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it('previews the call exactly as captured, reading the widget now when the capture has no read of it', async () => {
    const args = { occasion: 'birthday', budget: 60, recipient: 'Ada' };
    const result = await client.callTool({ name: 'suggest_gifts', arguments: args });
    await settled(app);
    const call = lastCall(app, 'suggest_gifts');

    const declared = await api<{ toolName: string; declaration?: unknown }>(app, `/widget/${call.id}/declaration`);
    expect(declared.body).toEqual({ toolName: 'suggest_gifts', declaration: { uri: GIFT_WIDGET_URI, mcpApps: GIFT_WIDGET_URI, appsSdk: GIFT_WIDGET_URI } });

    const before = await api<WidgetPreview>(app, `/widget/${call.id}`);
    expect(before.status).toBe(200);
    expect(before.body.call).toEqual({ status: 'ok', arguments: args, result });
    expect(before.body.resource).toBeUndefined();
    expect(before.body.sandboxPort).toBe(app.widgetPort);

    const read = await api<WidgetPreview>(app, `/widget/${call.id}/read`, {});
    expect(read.status).toBe(200);
    expect(read.body.resource).toMatchObject({ uri: GIFT_WIDGET_URI, html: GIFT_WIDGET_HTML, source: 'read-now', sameSession: false, mimeType: 'text/html;profile=mcp-app' });
    expect(read.body.resource!.csp.declaredBy).toEqual(['mcp-apps', 'apps-sdk']);
    // The side read is captured, linked to the call, in a session labelled for what it is.
    const side = app.store.exchange(read.body.resource!.exchangeId!)!;
    expect(side).toMatchObject({ method: 'resources/read', target: GIFT_WIDGET_URI, widgetOf: call.id, status: 'ok' });
    const labelled = session(app, side.sessionKey);
    expect(labelled.clientLabel).toBe('widget preview 1.0.0');
    // mcpscope's own session: told apart from a replay, and in no client's conversation.
    expect(ownSessionKind(labelled)).toEqual({ kind: 'labelled', label: 'widget preview' });
    expect(labelled.conversationKey).toBeUndefined();
    expect(labelled.clientCapabilities).toMatchObject({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app', 'text/html+skybridge'] } } });
  });

  it('prefers the newest read in the call’s own session once the client read it', async () => {
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 120 } });
    await client.readResource({ uri: GIFT_WIDGET_URI });
    await settled(app);
    const call = lastCall(app, 'suggest_gifts');
    const preview = (await api<WidgetPreview>(app, `/widget/${call.id}`)).body;
    expect(preview.resource).toMatchObject({ source: 'captured', sameSession: true, html: GIFT_WIDGET_HTML });
    expect(app.store.exchange(preview.resource!.exchangeId!)!.sessionKey).toBe(call.sessionKey);
  });

  it('sends the widget’s wrap_gift to the upstream, linked to the call, in one shared widget-preview session', async () => {
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40 } });
    await settled(app);
    const call = lastCall(app, 'suggest_gifts');
    await allow(app, call.id, 'wrap_gift');
    const first = await api<WidgetCallResponse>(app, `/widget/${call.id}/call`, { bridge: 'openai', name: 'wrap_gift', arguments: { gift: 'Fountain pen', steps: 1 }, mode: 'fresh' });
    expect(first.status).toBe(200);
    expect(first.body.result).toEqual({ content: [{ type: 'text', text: 'Fountain pen is wrapped with a bow.' }] });
    expect(first.body.exchange).toMatchObject({ method: 'tools/call', target: 'wrap_gift', status: 'ok', widgetOf: call.id });
    expect(first.body.sessionKey).not.toBe(call.sessionKey);
    const second = await api<WidgetCallResponse>(app, `/widget/${call.id}/call`, { bridge: 'mcp-apps', name: 'wrap_gift', arguments: { gift: 'Mug', steps: 1 } });
    expect(second.body.sessionKey).toBe(first.body.sessionKey);
    // Stored and pushed with the link, and listed on the call.
    expect(app.store.exchange(first.body.exchange.id)!.widgetOf).toBe(call.id);
    expect(app.store.replayLinks.widgetCalls(call.id)).toEqual([first.body.exchange.id, second.body.exchange.id]);
    expect(app.store.replayLinks.replays(call.id)).toEqual([]);
  });

  it('sends into the call’s own session when asked to', async () => {
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 30 } });
    await settled(app);
    const call = lastCall(app, 'suggest_gifts');
    await allow(app, call.id, 'wrap_gift');
    const sent = await api<WidgetCallResponse>(app, `/widget/${call.id}/call`, { bridge: 'mcp-apps', name: 'wrap_gift', arguments: { gift: 'Chocolate', steps: 1 }, mode: 'session' });
    expect(sent.status).toBe(200);
    expect(sent.body.sessionKey).toBe(call.sessionKey);
  });

  it('refuses what ChatGPT refuses: window.openai.callTool of a tool without openai/widgetAccessible', async () => {
    const call = lastCall(app, 'suggest_gifts');
    const before = app.store.head();
    const refused = await api<{ error: { code: string; message: string } }>(app, `/widget/${call.id}/call`, { bridge: 'openai', name: 'suggest_gifts', arguments: { occasion: 'x', budget: 10 } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'widget_call_refused', message: expect.stringContaining('openai/widgetAccessible') });
    await settled(app);
    expect(app.store.head()).toBe(before); // nothing was sent
    // The MCP Apps bridge allows every tool whose ui.visibility includes "app" (the default).
    await allow(app, call.id, 'suggest_gifts');
    expect((await api(app, `/widget/${call.id}/call`, { bridge: 'mcp-apps', name: 'suggest_gifts', arguments: { occasion: 'x', budget: 100 } })).status).toBe(200);
  });

  it('answers a wrong request with what is wrong', async () => {
    const call = lastCall(app, 'suggest_gifts');
    expect((await api<{ error: { code: string } }>(app, `/widget/${call.id}/call`, { bridge: 'carrier-pigeon', name: 'x' })).body.error.code).toBe('bad_param');
    const list = app.store.exchanges(1000).find((e: ExchangeSummary) => e.method === 'tools/list')!;
    expect((await api<{ error: { code: string } }>(app, `/widget/${list.id}`)).body.error.code).toBe('not_a_widget');
    expect((await api(app, '/widget/999999')).status).toBe(404);
  });
});

describe('a ChatGPT-like host that opens a session per call', () => {
  let app: Mcpscope;
  beforeAll(async () => {
    app = await startTestMcpscope();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** One session of chat `chat` (ChatGPT's `openai/session` in the call's _meta): call suggest_gifts, then maybe read the widget. */
  async function sessionOf(chat: string, read: boolean): Promise<void> {
    const client = await connectClient(app.mcpUrl);
    await client.listTools();
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: chat, budget: 50 }, _meta: { 'openai/session': chat } });
    if (read) await client.readResource({ uri: GIFT_WIDGET_URI });
    await client.close();
    await settled(app);
  }

  it('takes the widget from the call’s conversation before a newer read of another chat', async () => {
    await sessionOf('chat-1', true);
    const ownChat = app.store.exchanges(1000).find((e) => e.method === 'resources/read')!;
    await sessionOf('chat-2', true); // newer, but another conversation
    await sessionOf('chat-1', false);
    const call = lastCall(app, 'suggest_gifts');
    const conversationOf = (sessionKey: string) => session(app, sessionKey).conversationKey;
    expect(conversationOf(call.sessionKey)).toBe(conversationOf(ownChat.sessionKey));
    const preview = (await api<WidgetPreview>(app, `/widget/${call.id}`)).body;
    expect(preview.resource).toMatchObject({ source: 'captured', sameSession: false, exchangeId: ownChat.id });
  });
});

describe('widgets of a fixture server', () => {
  let app: Mcpscope;
  let server: WidgetServer;
  let client: Client;
  beforeAll(async () => {
    server = await startWidgetServer(
      [
        { tool: 'show', uri: 'ui://fixture/show.html', html: '<p>show</p>' },
        { tool: 'plain', uri: 'ui://fixture/plain.html', html: '<p>plain</p>', mimeType: 'text/html', structured: () => undefined },
        { tool: 'ghost', uri: 'ui://fixture/ghost.html', html: '', toolMeta: { ui: { resourceUri: 'ui://fixture/never.html' } } },
        // 100 KiB of widget-only data, and two standards that disagree (widget URI, CSP, domain).
        {
          tool: 'heavy',
          uri: 'ui://fixture/heavy.html',
          html: '<p>heavy</p>',
          toolMeta: { ui: { resourceUri: 'ui://fixture/heavy.html' }, 'openai/outputTemplate': 'ui://fixture/heavy-v2.html' },
          resourceMeta: {
            ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] }, domain: 'https://heavy.example.com' },
            'openai/widgetCSP': { connect_domains: ['https://api.example.com'], resource_domains: [] },
            'openai/widgetDomain': 'https://chatgpt-heavy.example.com',
          },
          resultMeta: { rows: 'x'.repeat(100 * 1024) },
        },
      ],
      [
        { name: 'model_only', meta: { ui: { visibility: ['model'] }, 'openai/widgetAccessible': true } },
        { name: 'app_only', meta: { ui: { visibility: ['app'] }, 'openai/visibility': 'private', 'openai/widgetAccessible': true } },
      ],
    );
    app = await startTestMcpscope({ target: server.url });
    client = await connectClient(app.mcpUrl);
    await client.listTools();
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await server?.close();
  });

  it('refuses a call to a model-only tool (ui.visibility without "app") and never sends it', async () => {
    await client.callTool({ name: 'show', arguments: {} });
    await settled(app);
    const call = lastCall(app, 'show');
    const refused = await api<{ error: { code: string; message: string } }>(app, `/widget/${call.id}/call`, { bridge: 'mcp-apps', name: 'model_only', arguments: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('without "app"');
    expect(server.calls.get('model_only')).toBeUndefined();
    await allow(app, call.id, 'app_only');
    const allowed = await api<WidgetCallResponse>(app, `/widget/${call.id}/call`, { bridge: 'openai', name: 'app_only', arguments: { n: 1 } });
    expect(allowed.body.result?.structuredContent).toEqual({ tool: 'app_only', args: { n: 1 } });
    expect(server.calls.get('app_only')).toBe(1);
    const ghost = await api<{ error: { code: string } }>(app, `/widget/${call.id}/call`, { bridge: 'mcp-apps', name: 'no_such_tool', arguments: {} });
    expect(ghost.status).toBe(403);
  });

  it('lints what makes widgets render blank: wrong MIME, no structuredContent, a URI never read', async () => {
    await client.callTool({ name: 'plain', arguments: {} });
    await client.readResource({ uri: 'ui://fixture/plain.html' });
    await client.callTool({ name: 'ghost', arguments: {} });
    await settled(app);
    const plain = (await api<WidgetPreview>(app, `/widget/${lastCall(app, 'plain').id}`)).body;
    expect(plain.lints.map((l) => l.code).sort()).toEqual(['widget-mime-wrong', 'widget-result-without-structured-content']);
    // The deriver flagged the same on the traffic itself.
    const readEx = app.store.exchanges(1000).find((e) => e.method === 'resources/read' && e.target === 'ui://fixture/plain.html')!;
    expect(app.store.diagnosticsFor(readEx).map((d) => d.code)).toContain('widget-mime-wrong');
    const ghost = (await api<WidgetPreview>(app, `/widget/${lastCall(app, 'ghost').id}`)).body;
    expect(ghost.lints.map((l) => l.code)).toContain('widget-uri-never-read');
    const failed = await api<{ error: { code: string; message: string } }>(app, `/widget/${lastCall(app, 'ghost').id}/read`, {});
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toContain('Resource not found');
  });

  it('lints what makes hosts disagree: oversized result _meta, and the two standards saying different things', async () => {
    await client.listTools();
    await client.callTool({ name: 'heavy', arguments: {} });
    await client.readResource({ uri: 'ui://fixture/heavy.html' });
    await settled(app);
    const { lints } = (await api<WidgetPreview>(app, `/widget/${lastCall(app, 'heavy').id}`)).body;
    const byCode = Object.fromEntries(lints.map((l) => [l.code, l.message]));
    expect(Object.keys(byCode).sort()).toEqual(['widget-csp-disagrees', 'widget-domain-disagrees', 'widget-result-meta-large', 'widget-uri-disagrees']);
    expect(byCode['widget-result-meta-large']).toContain('100 KiB of _meta');
    expect(byCode['widget-uri-disagrees']).toContain('openai/outputTemplate "ui://fixture/heavy-v2.html"');
    expect(byCode['widget-csp-disagrees']).toContain('only ui.csp has https://cdn.example.com');
    expect(byCode['widget-domain-disagrees']).toContain('https://chatgpt-heavy.example.com');
    // Each lint points at the exchange it is about.
    const read = app.store.exchanges(1000).find((e) => e.method === 'resources/read' && e.target === 'ui://fixture/heavy.html')!;
    expect(lints.find((l) => l.code === 'widget-csp-disagrees')?.exchangeId).toBe(read.id);
    expect(lints.find((l) => l.code === 'widget-result-meta-large')?.exchangeId).toBe(lastCall(app, 'heavy').id);
  });
});
