// Widget lints, on their own and as the deriver reports them on live traffic.
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, LARGE_META_BYTES, toolWidgetFindings, widgetResourceFindings, widgetResultFindings, type Derived, type Frame } from '../../src/index.js';
import { createValidator } from '../../src/validate/index.js';
import { frameMaker } from '../support/frames.js';

const codes = (fs: { code: string }[]) => fs.map((f) => f.code);

describe('tool lints', () => {
  it('flags the two standards naming different widgets, flat vs nested, and a non-ui:// MCP Apps URI', () => {
    expect(codes(toolWidgetFindings({ name: 't', _meta: { ui: { resourceUri: 'ui://a' }, 'openai/outputTemplate': 'ui://b' } }, '$'))).toEqual(['widget-uri-disagrees']);
    expect(codes(toolWidgetFindings({ name: 't', _meta: { ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b' } }, '$'))).toEqual(['widget-uri-disagrees']);
    expect(codes(toolWidgetFindings({ name: 't', _meta: { ui: { resourceUri: 'https://x/a.html' } } }, '$'))).toEqual(['widget-uri-scheme']);
    expect(toolWidgetFindings({ name: 't', _meta: { ui: { resourceUri: 'ui://a' }, 'openai/outputTemplate': 'ui://a' } }, '$')).toEqual([]);
  });

  it('flags visibility that hides a tool from the model in one standard only', () => {
    const f = toolWidgetFindings({ name: 'helper', _meta: { ui: { visibility: ['app'] }, 'openai/visibility': 'public' } }, '$.result.tools[1]');
    expect(f).toEqual([expect.objectContaining({ code: 'widget-visibility-disagrees', path: '$.result.tools[1]._meta["openai/visibility"]' })]);
    expect(toolWidgetFindings({ name: 'helper', _meta: { ui: { visibility: ['app'] }, 'openai/visibility': 'private' } }, '$')).toEqual([]);
  });
});

describe('result and resource lints', () => {
  it('a widget result without structuredContent, or with oversized _meta', () => {
    expect(codes(widgetResultFindings('t', { content: [] }, '$'))).toEqual(['widget-result-without-structured-content']);
    expect(widgetResultFindings('t', { isError: true, content: [] }, '$')).toEqual([]);
    const big = { content: [], structuredContent: {}, _meta: { blob: 'x'.repeat(LARGE_META_BYTES) } };
    expect(codes(widgetResultFindings('t', big, '$'))).toEqual(['widget-result-meta-large']);
  });

  it('a widget served with the wrong MIME type, with no HTML, or with standards that disagree', () => {
    expect(codes(widgetResourceFindings('ui://w', { contents: [{ uri: 'ui://w', mimeType: 'text/html', text: '<p>' }] }, '$'))).toEqual(['widget-mime-wrong']);
    expect(widgetResourceFindings('ui://w', { contents: [{ uri: 'ui://w', mimeType: 'text/html;profile=mcp-app', text: '<p>' }] }, '$')).toEqual([]);
    expect(widgetResourceFindings('ui://w', { contents: [{ uri: 'ui://w', mimeType: 'text/html+skybridge', text: '<p>' }] }, '$')).toEqual([]);
    expect(codes(widgetResourceFindings('ui://w', { contents: [] }, '$'))).toEqual(['widget-resource-empty']);
    const meta = {
      ui: { csp: { resourceDomains: ['https://a.test'] }, domain: 'one.example', prefersBorder: true },
      'openai/widgetCSP': { resource_domains: ['https://b.test'] },
      'openai/widgetDomain': 'two.example',
      'openai/widgetPrefersBorder': false,
    };
    const found = widgetResourceFindings('ui://w', { contents: [{ uri: 'ui://w', mimeType: 'text/html;profile=mcp-app', text: '<p>', _meta: meta }] }, '$');
    expect(codes(found)).toEqual(['widget-csp-disagrees', 'widget-domain-disagrees', 'widget-border-disagrees']);
    expect(found[0]!.message).toContain('only ui.csp has https://a.test; only openai/widgetCSP has https://b.test');
  });
});

describe('the deriver reports widget lints on live traffic', () => {
  const tool = { name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://show.html' }, 'openai/outputTemplate': 'ui://other.html' } };

  function run(frames: ((f: ReturnType<typeof frameMaker>) => Frame)[]): Derived['diagnostics'] {
    const d = new CaptureDeriver({ validator: createValidator() });
    const f = frameMaker();
    const init = [
      f('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
      f('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {}, resources: {} }, serverInfo: { name: 's', version: '1' } } }),
    ];
    for (const frame of init) d.ingest(frame);
    return frames.flatMap((make) => d.ingest(make(f)).diagnostics);
  }

  it('on the tools/list, the call result and the resources/read', () => {
    const found = run([
      (f) => f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      (f) => f('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [tool] } }),
      (f) => f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'show', arguments: {} } }),
      (f) => f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'shown' }] } }),
      (f) => f('c2s', { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'ui://show.html' } }),
      (f) => f('s2c', { jsonrpc: '2.0', id: 3, result: { contents: [{ uri: 'ui://show.html', mimeType: 'text/html', text: '<p>' }] } }),
    ]);
    expect(found.map((d) => [d.frameSeq, d.code, d.path])).toEqual([
      [4, 'widget-uri-disagrees', '$.result.tools[0]._meta["openai/outputTemplate"]'],
      [6, 'widget-result-without-structured-content', '$.result'],
      [8, 'widget-mime-wrong', '$.result.contents[0].mimeType'],
    ]);
  });
});
