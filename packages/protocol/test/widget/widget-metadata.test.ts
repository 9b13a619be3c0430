// Widget metadata as hosts read it: which widget a tool declares under either standard, whether a
// widget may call a tool, and the sandbox a resource asks for.
import { describe, expect, it } from 'vitest';
import { MCP_APP_MIME, widgetCallVerdict, widgetOfTool, widgetResourceOf, type JsonObject } from '../../src/index.js';

describe('widgetOfTool', () => {
  it('reads MCP Apps nested, the older flat key, and openai/outputTemplate; MCP Apps wins', () => {
    expect(widgetOfTool({ name: 't', _meta: { ui: { resourceUri: 'ui://a.html' } } })).toEqual({ uri: 'ui://a.html', mcpApps: 'ui://a.html' });
    expect(widgetOfTool({ name: 't', _meta: { 'ui/resourceUri': 'ui://flat.html' } })).toEqual({ uri: 'ui://flat.html', mcpApps: 'ui://flat.html' });
    expect(widgetOfTool({ name: 't', _meta: { 'openai/outputTemplate': 'ui://widget/x.html' } })).toEqual({ uri: 'ui://widget/x.html', appsSdk: 'ui://widget/x.html' });
    expect(widgetOfTool({ name: 't', _meta: { ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b', 'openai/outputTemplate': 'ui://c' } })).toEqual({ uri: 'ui://a', mcpApps: 'ui://a', appsSdk: 'ui://c' });
  });

  it('a tool without a widget, or with a non-string URI, declares none', () => {
    expect(widgetOfTool({ name: 't' })).toBeUndefined();
    expect(widgetOfTool({ name: 't', _meta: { ui: { resourceUri: 5 } } } as unknown as JsonObject)).toBeUndefined();
    expect(widgetOfTool({ name: 't', _meta: { ui: { visibility: ['app'] } } })).toBeUndefined();
  });
});

describe('widgetCallVerdict', () => {
  const tools: JsonObject[] = [
    { name: 'open', _meta: {} },
    { name: 'model_only', _meta: { ui: { visibility: ['model'] }, 'openai/widgetAccessible': true } },
    { name: 'app_only', _meta: { ui: { visibility: ['app'] }, 'openai/widgetAccessible': true, 'openai/visibility': 'private' } },
  ];

  it('MCP Apps: every tool is callable unless ui.visibility leaves out "app"', () => {
    expect(widgetCallVerdict('open', tools, 'mcp-apps')).toEqual({ allowed: true });
    expect(widgetCallVerdict('app_only', tools, 'mcp-apps')).toEqual({ allowed: true });
    const refused = widgetCallVerdict('model_only', tools, 'mcp-apps');
    expect(refused).toMatchObject({ allowed: false, reason: expect.stringContaining('without "app"') });
  });

  it('window.openai.callTool: only tools with openai/widgetAccessible true', () => {
    expect(widgetCallVerdict('open', tools, 'openai')).toMatchObject({ allowed: false, reason: expect.stringContaining('openai/widgetAccessible') });
    expect(widgetCallVerdict('app_only', tools, 'openai')).toEqual({ allowed: true });
    expect(widgetCallVerdict('model_only', tools, 'openai')).toMatchObject({ allowed: false });
  });

  it('an unlisted tool is refused; with no tools/list at all nothing can be checked', () => {
    expect(widgetCallVerdict('ghost', tools, 'mcp-apps')).toMatchObject({ allowed: false, reason: expect.stringContaining('not in the server') });
    expect(widgetCallVerdict('ghost', undefined, 'openai')).toMatchObject({ allowed: true, note: expect.any(String) });
  });
});

describe('widgetResourceOf', () => {
  it('merges ui.csp and openai/widgetCSP (their union), and reads permissions, domain and border', () => {
    const result = {
      contents: [
        {
          uri: 'ui://w.html',
          mimeType: MCP_APP_MIME,
          text: '<p>hi</p>',
          _meta: {
            ui: { csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] }, permissions: { microphone: {} }, domain: 'abc.example', prefersBorder: true },
            'openai/widgetCSP': { connect_domains: ['https://api.example.com', 'wss://rt.example.com'], resource_domains: [], frame_domains: ['https://embed.example.com'] },
          },
        },
      ],
    };
    const r = widgetResourceOf(result, 'ui://w.html')!;
    expect(r.html).toBe('<p>hi</p>');
    expect(r.mimeType).toBe(MCP_APP_MIME);
    expect(r.csp).toEqual({
      connectDomains: ['https://api.example.com', 'wss://rt.example.com'],
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: ['https://embed.example.com'],
      baseUriDomains: [],
      declaredBy: ['mcp-apps', 'apps-sdk'],
    });
    expect(r.permissions).toEqual({ microphone: true });
    expect(r).toMatchObject({ domain: 'abc.example', prefersBorder: true });
  });

  it('decodes a base64 blob and falls back to the resources/list entry for _meta', () => {
    const html = '<h1>Grüße</h1>';
    const blob = Buffer.from(html, 'utf8').toString('base64');
    const r = widgetResourceOf({ contents: [{ uri: 'ui://b', blob }] }, 'ui://b', { uri: 'ui://b', mimeType: 'text/html+skybridge', _meta: { 'openai/widgetCSP': { resource_domains: ['https://x.test'] } } })!;
    expect(r.html).toBe(html);
    expect(r.mimeType).toBe('text/html+skybridge');
    expect(r.csp.resourceDomains).toEqual(['https://x.test']);
    expect(r.csp.declaredBy).toEqual(['apps-sdk']);
  });

  it('a result without contents is no resource', () => {
    expect(widgetResourceOf({ contents: [] }, 'ui://x')).toBeUndefined();
    expect(widgetResourceOf({}, 'ui://x')).toBeUndefined();
  });
});
