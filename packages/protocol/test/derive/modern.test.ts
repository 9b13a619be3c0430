// 2026-07-28 (stateless) traffic through the deriver: revision from _meta, MRTR chains, Mcp-* headers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, type Diagnostic, type Frame } from '../../src/index.js';
import { createValidator } from '../../src/validate/index.js';
import { frameMaker } from '../support/frames.js';

const validator = createValidator();
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' } };
const headers = (method: string, name?: string) => ({
  method: 'POST',
  path: '/mcp',
  requestHeaders: { 'mcp-method': method, 'mcp-protocol-version': '2026-07-28', ...(name ? { 'mcp-name': name } : {}) },
});
const call = (id: number, extra: object = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: meta, name: 'book', arguments: {}, ...extra } });

describe('2026-07-28 traffic', () => {
  it('judges each request by the revision in its own _meta and knows the session era', () => {
    const d = new CaptureDeriver({ validator });
    const f = frameMaker('modern-1');
    const ok = d.ingest(f('c2s', call(1), { http: headers('tools/call', 'book') }));
    expect(ok.diagnostics).toEqual([]);
    expect(d.session('modern-1')).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    const answer = d.ingest(f('s2c', { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'booked' }] } }));
    expect(answer.diagnostics).toMatchObject([{ code: 'result-invalid', path: '$.result' }]);
    expect(answer.diagnostics[0]!.message).toContain('resultType');
  });

  it('links an input_required answer and its retry with requestState into one chain', () => {
    const d = new CaptureDeriver({ validator });
    const f = frameMaker('modern-2');
    const first = d.ingest(f('c2s', call(1), { http: headers('tools/call', 'book') })).exchanges[0]!;
    const asked = d.ingest(
      f('s2c', { jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: { seat: { method: 'elicitation/create', params: { mode: 'form', message: 'Seat?', requestedSchema: { type: 'object', properties: {} } } } }, requestState: 'st-1' } }),
    ).exchanges[0]!;
    expect(asked).toMatchObject({ id: first.id, status: 'ok', inputRequired: true, diagnostics: 0 });
    const retry = d.ingest(f('c2s', call(2, { requestState: 'st-1', inputResponses: { seat: { action: 'accept', content: { seat: '2A' } } } }), { http: headers('tools/call', 'book') }));
    expect(retry.diagnostics).toEqual([]);
    expect(retry.exchanges[0]).toMatchObject({ chainOf: first.id, status: 'pending' });
    const done = d.ingest(f('s2c', { jsonrpc: '2.0', id: 2, result: { resultType: 'complete', content: [{ type: 'text', text: 'booked' }] } }));
    expect(done.exchanges[0]).toMatchObject({ chainOf: first.id, status: 'ok' });
    expect(done.exchanges[0]!.inputRequired).toBeUndefined();
  });

  it('checks Mcp-Method and Mcp-Name headers against the body', () => {
    const d = new CaptureDeriver({ validator });
    const f = frameMaker('modern-3');
    const wrong = d.ingest(f('c2s', call(1), { http: headers('tools/list', 'other') }));
    expect(wrong.diagnostics.map((x) => [x.code, x.path])).toEqual([
      ['header-mismatch', '$.method'],
      ['header-mismatch', '$.params.name'],
    ]);
    const missing = d.ingest(f('c2s', call(2), { http: { method: 'POST', path: '/mcp', requestHeaders: {} } }));
    expect(missing.diagnostics.map((x) => x.code)).toEqual(['header-missing', 'header-missing']);
    // Non-ASCII names travel base64-encoded.
    const encoded = d.ingest(f('c2s', { ...call(3), params: { _meta: meta, name: 'réserver' } }, { http: headers('tools/call', '=?base64?csOpc2VydmVy?=') }));
    expect(encoded.diagnostics).toEqual([]);
  });

  it('rejects initialize, which 2026-07-28 removed', () => {
    const d = new CaptureDeriver({ validator });
    const f = frameMaker('modern-4');
    const out = d.ingest(f('c2s', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: meta, protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, { http: headers('initialize') }));
    expect(out.diagnostics.map((x) => x.code)).toEqual(['not-in-revision']);
  });
});

describe('diagnostics do not depend on how sessions interleave', () => {
  const sessionFrames = (key: string): Frame[] => {
    const f = frameMaker(key);
    return [
      f('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
      f('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }),
      f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      f('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }] } }),
      f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', arguments: { n: 'x' } } }),
      f('c2s', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ghost' } }),
      f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [] } }),
      f('s2c', { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
    ];
  };
  const a = sessionFrames('A');
  const b = sessionFrames('B');

  function run(order: Frame[]): { diags: Map<string, string[]> } {
    const d = new CaptureDeriver({ validator });
    const diags = new Map<string, string[]>();
    order.forEach((frame, i) => {
      const out = d.ingest({ ...frame, seq: i + 1 });
      const list = diags.get(frame.sessionKey) ?? [];
      list.push(...out.diagnostics.map((x: Diagnostic) => `${x.code}@${x.path}`));
      diags.set(frame.sessionKey, list);
    });
    return { diags };
  }

  it('gives each session the same diagnostics for every interleaving', () => {
    const baseline = run([...a, ...b]);
    expect(baseline.diags.get('A')!.length).toBeGreaterThan(2);
    expect(baseline.diags.get('A')).toEqual(baseline.diags.get('B'));
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: a.length + b.length, maxLength: a.length + b.length }), (picks) => {
        const order: Frame[] = [];
        let i = 0;
        let j = 0;
        for (const pickA of picks) order.push(pickA ? (a[i++] ?? b[j++]!) : (b[j++] ?? a[i++]!));
        expect(run(order).diags).toEqual(baseline.diags);
      }),
      { numRuns: 60 },
    );
  });
});
