// CaptureDeriver diagnostics: what a user sees flagged on the timeline, frame by frame.
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, compileFilter, parseFilter, type Derived, type Diagnostic, type Frame } from '../../src/index.js';
import { createValidator } from '../../src/validate/index.js';
import { frameMaker } from '../support/frames.js';

const validator = createValidator();

const weatherTool = {
  name: 'get_weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] },
};

/** A legacy session up to a tools/list answer; returns the deriver and the frame maker. */
function session(rev = '2025-06-18', serverCaps: object = { tools: { listChanged: true }, logging: {} }) {
  const d = new CaptureDeriver({ validator });
  const f = frameMaker();
  const feed = (frame: Frame): Derived => d.ingest(frame);
  feed(f('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: rev, capabilities: {}, clientInfo: { name: 'c', version: '1' } } }));
  feed(f('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: rev, capabilities: serverCaps, serverInfo: { name: 's', version: '1' } } }));
  feed(f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  feed(f('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [weatherTool] } }));
  return { d, f, feed };
}

const codes = (ds: Diagnostic[]) => ds.map((x) => x.code);

describe('CaptureDeriver diagnostics', () => {
  it('a clean session has no diagnostics', () => {
    const { f, feed } = session();
    const call = feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'Paris' } } }));
    const answer = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '18' }], structuredContent: { temperature: 18 } } }));
    expect([...call.diagnostics, ...answer.diagnostics]).toEqual([]);
    expect(answer.exchanges[0]).toMatchObject({ status: 'ok', diagnostics: 0 });
  });

  it('checks tools/call arguments against the tool inputSchema, with the path, and counts it on the exchange', () => {
    const { f, feed } = session();
    const out = feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 5 } } }));
    expect(out.diagnostics).toMatchObject([{ code: 'tool-arguments-invalid', severity: 'error', path: '$.params.arguments.city', exchangeId: out.exchanges[0]!.id }]);
    expect(out.exchanges[0]!.diagnostics).toBe(1);
    const answer = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'city must be a name' }], isError: true } }));
    expect(answer.exchanges[0]!.diagnostics).toBe(1); // the count stays with the exchange
  });

  it('flags a phantom tool that is not in the latest tools/list', () => {
    const { f, feed } = session();
    const out = feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_wether', arguments: {} } }));
    expect(out.diagnostics).toMatchObject([{ code: 'phantom-tool', path: '$.params.name' }]);
  });

  it('checks structuredContent against outputSchema, and its absence', () => {
    const { f, feed } = session();
    feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const bad = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'warm' }], structuredContent: { temperature: 'warm' } } }));
    expect(bad.diagnostics).toMatchObject([{ code: 'structured-content-invalid', path: '$.result.structuredContent.temperature' }]);
    feed(f('c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const missing = feed(f('s2c', { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'warm' }] } }));
    expect(codes(missing.diagnostics)).toContain('structured-content-missing');
  });

  it('marks a result a host rejects as failed: the row carries the rule it broke and status:err finds it', () => {
    const { f, feed } = session();
    const parsed = parseFilter('status:err');
    if (!parsed.ok) throw new Error('status:err does not parse');
    const isErr = compileFilter(parsed.filter);
    feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const bad = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'warm' }], structuredContent: { temperature: 'warm' } } })).exchanges[0]!;
    expect(bad).toMatchObject({ status: 'ok', brokeHostRules: 'structured-content-invalid' });
    expect(isErr(bad)).toBe(true);
    feed(f('c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const good = feed(f('s2c', { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '18' }], structuredContent: { temperature: 18 } } })).exchanges[0]!;
    expect(good.brokeHostRules).toBeUndefined();
    expect(isErr(good)).toBe(false);
  });

  it('says when a tool result has no content, and when a tool changes its result shape', () => {
    const { f, feed } = session('2025-03-26');
    feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const noContent = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { temperature: 18 } }));
    expect(noContent.diagnostics.find((x) => x.code === 'tool-result-without-content')).toMatchObject({ path: '$.result', severity: 'error' });
    feed(f('c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const changed = feed(f('s2c', { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '18' }] } }));
    expect(codes(changed.diagnostics)).toContain('tool-result-shape-changed');
  });

  it('validates a result by the method of the request it answers', () => {
    const { f, feed } = session();
    feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'p' } }));
    const out = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { prompt: { messages: [] } } }));
    expect(out.diagnostics).toMatchObject([{ code: 'result-invalid', path: '$.result', severity: 'error' }]);
    expect(out.diagnostics[0]!.message).toContain('messages');
  });

  it('names the tutorial spelling of notifications and the real one', () => {
    const { f, feed } = session();
    const out = feed(f('s2c', { jsonrpc: '2.0', method: 'tools/list_changed' }));
    expect(out.diagnostics).toMatchObject([{ code: 'notification-name', path: '$.method' }]);
    expect(out.diagnostics[0]!.message).toContain('notifications/tools/list_changed');
  });

  it('flags traffic the negotiated capabilities do not allow', () => {
    const { f, feed } = session('2025-06-18', { tools: {} });
    const out = feed(f('s2c', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));
    expect(out.diagnostics).toMatchObject([{ code: 'capability-not-negotiated', severity: 'warning' }]);
    expect(codes(feed(f('c2s', { jsonrpc: '2.0', id: 9, method: 'prompts/list' })).diagnostics)).toEqual(['capability-not-negotiated']);
  });

  it('flags a request sent by the wrong side', () => {
    const { f, feed } = session();
    const out = feed(f('c2s', { jsonrpc: '2.0', id: 5, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }));
    expect(codes(out.diagnostics)).toContain('wrong-direction');
  });

  it('allows batches only in 2025-03-26', () => {
    const batch = [
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 8, method: 'ping' },
    ];
    const modern = session('2025-06-18');
    expect(codes(modern.feed(modern.f('c2s', batch)).diagnostics)).toEqual(['batch-not-allowed']);
    const old = session('2025-03-26');
    expect(old.feed(old.f('c2s', batch)).diagnostics).toEqual([]);
  });

  it('flags a request id reused while the first is still in flight', () => {
    const { f, feed } = session();
    feed(f('c2s', { jsonrpc: '2.0', id: 4, method: 'ping' }));
    const out = feed(f('c2s', { jsonrpc: '2.0', id: 4, method: 'ping' }));
    expect(out.diagnostics).toMatchObject([{ code: 'id-reused-in-flight', severity: 'error' }]);
    expect(out.exchanges[0]!.diagnostics).toBe(1);
  });

  it.each([
    ['tools/call with tool/args', 'c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { tool: 'get_weather', args: {} } }, ['tool-call-wrong-field', 'tool-call-wrong-field'], '$.params.tool'],
    ['resourceId instead of uri', 'c2s', { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { resourceId: 'file:///a' } }, ['resource-id-instead-of-uri'], '$.params.resourceId'],
    ['a notification with an id', 's2c', { jsonrpc: '2.0', id: 3, method: 'notifications/message', params: { level: 'info', data: 1 } }, ['notification-with-id'], '$.id'],
    ['result and error together', 's2c', { jsonrpc: '2.0', id: 3, result: {}, error: { code: 1, message: 'x' } }, ['result-and-error'], '$'],
    ['a tool result as a notification', 's2c', { jsonrpc: '2.0', method: 'notifications/tools/result', params: { content: [{ type: 'text', text: 'hi' }] } }, ['tool-result-as-notification'], '$'],
    ['progressToken outside _meta', 'c2s', { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { progressToken: 't' } }, ['progress-token-misplaced'], '$.params.progressToken'],
  ])('lints %s', (_name, dir, body, expected, path) => {
    const { f, feed } = session();
    const out = feed(f(dir as Frame['direction'], body));
    const lints = out.diagnostics.filter((d) => expected.includes(d.code));
    expect(codes(lints)).toEqual(expected);
    expect(lints[0]!.path).toBe(path);
    expect(lints[0]!.message.length).toBeGreaterThan(40);
  });

  it('hints when business and protocol errors look swapped', () => {
    const { f, feed } = session();
    feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const isError = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }], isError: true } }));
    expect(isError.diagnostics).toMatchObject([{ code: 'is-error-looks-like-protocol-error', severity: 'info' }]);
    feed(f('c2s', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'P' } } }));
    const rpcError = feed(f('s2c', { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'Insufficient balance' } }));
    expect(rpcError.diagnostics).toMatchObject([{ code: 'protocol-error-looks-like-business', severity: 'warning' }]);
  });

  it('skips a hostile tool schema once, saying why, instead of hanging on it', () => {
    const d = new CaptureDeriver({ validator });
    const f = frameMaker();
    const hostile = { name: 'grep', inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } } };
    d.ingest(f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    d.ingest(f('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [hostile] } }));
    const call = () => f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'grep', arguments: { q: 'a'.repeat(40) + '!' } } });
    const first = d.ingest(call());
    expect(first.diagnostics).toMatchObject([{ code: 'tool-schema-skipped', severity: 'info', path: '$.params.arguments' }]);
    expect(first.diagnostics[0]!.message).toContain('exponential');
    d.ingest(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [] } }));
    expect(d.ingest(call()).diagnostics).toEqual([]);
  });

  it('without a validator still lints, but does no schema checks', () => {
    const d = new CaptureDeriver();
    const f = frameMaker();
    const out = d.ingest(f('c2s', { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { resourceId: 'x' } }));
    expect(codes(out.diagnostics)).toEqual(['resource-id-instead-of-uri']);
  });

  it('reports unparseable frames as invalid-message', () => {
    const d = new CaptureDeriver({ validator });
    const out = d.ingest(frameMaker()('c2s', '{"jsonrpc":'));
    expect(out.diagnostics).toMatchObject([{ code: 'invalid-message', severity: 'error' }]);
    expect(out.exchanges[0]).toMatchObject({ status: 'invalid', diagnostics: 1 });
  });

  it('a parse-error answer with id null passes (JSON-RPC requires it), as does one without an id from 2025-11-25; a null id on any other error does not', () => {
    for (const rev of ['2025-03-26', '2025-11-25']) {
      const { f, feed } = session(rev);
      feed(f('c2s', '{"jsonrpc":'));
      if (rev === '2025-11-25') {
        const withoutId = feed(f('s2c', { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }));
        expect(withoutId.diagnostics.filter((x) => x.code === 'envelope-invalid')).toEqual([]);
      }
      const nullId = feed(f('s2c', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      expect(nullId.diagnostics).toEqual([]);
      const otherError = feed(f('s2c', { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } }));
      expect(otherError.diagnostics).toMatchObject([{ code: 'envelope-invalid', severity: 'error', path: '$.id' }]);
    }
  });
});
