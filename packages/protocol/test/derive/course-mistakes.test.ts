// The six mistakes of the MCP message-format lesson, each committed on purpose (both ways where a
// mistake has two), and what the deriver says: the code, the JSON path and the words a learner reads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, type Derived, type Diagnostic, type Frame } from '../../src/index.js';
import { METHODS, NOTIFICATIONS } from '../../src/revisions/revisions.js';
import { levenshtein, nearMiss } from '../../src/derive/near-miss.js';
import { createValidator } from '../../src/validate/index.js';
import { frameMaker } from '../support/frames.js';
import { chatgptCall, numbered } from '../support/hosts.js';

const validator = createValidator();

const suggestGifts = {
  name: 'suggest_gifts',
  inputSchema: { type: 'object', properties: { occasion: { type: 'string' }, budget: { type: 'number' } }, required: ['occasion'] },
};

function session(rev = '2025-11-25') {
  const d = new CaptureDeriver({ validator });
  const f = frameMaker();
  const feed = (frame: Frame): Derived => d.ingest(frame);
  feed(f('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: rev, capabilities: {}, clientInfo: { name: 'c', version: '1' } } }));
  feed(f('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: rev, capabilities: { tools: {}, resources: {}, logging: {} }, serverInfo: { name: 's', version: '1' } } }));
  feed(f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  feed(f('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [suggestGifts] } }));
  return { f, feed };
}

const only = (ds: Diagnostic[], code: string) => {
  const hits = ds.filter((d) => d.code === code);
  expect(hits, `${code} in ${JSON.stringify(ds.map((d) => d.code))}`).toHaveLength(1);
  return hits[0]!;
};
const call = (id: number, params: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('mistake 1: protocol errors and business errors mixed up', () => {
  it('a method the server lacks, answered with isError: -32601 was due', () => {
    const { f, feed } = session();
    feed(f('c2s', { jsonrpc: '2.0', id: 2, method: 'gifts/wrap', params: {} }));
    const answer = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'unsupported' }], isError: true } }));
    const d = only(answer.diagnostics, 'business-error-for-protocol-problem');
    expect(d).toMatchObject({ severity: 'warning', path: '$.result.isError' });
    expect(d.message).toContain('-32601 Method not found');
  });

  it('a tool that ran and failed, answered with -32603: a warning that says to return isError', () => {
    const { f, feed } = session();
    feed(f('c2s', call(2, { name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 5 } })));
    const answer = feed(f('s2c', { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'No gifts under 5 EUR' } }));
    const d = only(answer.diagnostics, 'protocol-error-looks-like-business');
    expect(d.severity).toBe('warning');
    expect(d.message).toContain('isError: true and the reason in content');
  });

  it('a malformed call answered with -32603: the tool never ran, -32602 was due', () => {
    const { f, feed } = session();
    feed(f('c2s', call(2, { tool: 'suggest_gifts', args: { occasion: 'wedding' } })));
    const answer = feed(f('s2c', { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error' } }));
    const d = only(answer.diagnostics, 'internal-error-for-bad-request');
    expect(d.message).toContain('params.tool instead of params.name');
    expect(d.message).toContain('-32602 Invalid params');
    expect(answer.diagnostics.map((x) => x.code)).not.toContain('protocol-error-looks-like-business');
  });

  it('isError: true with nothing in content: the model cannot read why', () => {
    const { f, feed } = session();
    feed(f('c2s', call(2, { name: 'suggest_gifts', arguments: { occasion: 'wedding' } })));
    const answer = feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [], isError: true } }));
    expect(only(answer.diagnostics, 'is-error-without-reason')).toMatchObject({ severity: 'warning', path: '$.result.content' });
  });
});

describe('mistake 2: missing or reused ids', () => {
  it('tools/call without an id is a request that can never be answered, not a notification with a tool result', () => {
    const { f, feed } = session();
    const out = feed(f('c2s', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'wedding' } } }));
    const d = only(out.diagnostics, 'request-without-id');
    expect(d.severity).toBe('error');
    expect(d.message).toContain('no reply can ever come');
    expect(out.diagnostics.map((x) => x.code)).toEqual(['request-without-id']);
  });
});

describe('mistake 3: unstable result shapes', () => {
  it('is caught across a ChatGPT conversation that opens a session per call', () => {
    const d = new CaptureDeriver({ validator, conversations: true });
    const first = chatgptCall('chat-a', { hostId: 'conv-1' });
    const second = chatgptCall('chat-b', { hostId: 'conv-1' });
    second[second.length - 1] = { ...second.at(-1)!, raw: JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'x' }], structuredContent: { gifts: [] } } }) };
    const diagnostics = numbered([...first, ...second]).flatMap((frame) => d.ingest(frame).diagnostics);
    const d3 = only(diagnostics, 'tool-result-shape-changed');
    expect(d3.message).toContain('structured: {gifts}');
  });

  it('is not reported between two unrelated conversations', () => {
    const d = new CaptureDeriver({ validator, conversations: true });
    const first = chatgptCall('chat-c', { hostId: 'conv-2' });
    const second = chatgptCall('chat-d', { hostId: 'conv-3' });
    second[second.length - 1] = { ...second.at(-1)!, raw: JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'x' }], structuredContent: { gifts: [] } } }) };
    const diagnostics = numbered([...first, ...second]).flatMap((frame) => d.ingest(frame).diagnostics);
    expect(diagnostics.map((x) => x.code)).not.toContain('tool-result-shape-changed');
  });
});

describe('mistake 4: wrong or extra params fields', () => {
  it('arguments flattened into params: names the fields and where they belong, not "arguments is missing occasion"', () => {
    const { f, feed } = session();
    const out = feed(f('c2s', call(2, { name: 'suggest_gifts', occasion: 'wedding', budget: 40 })));
    const d = only(out.diagnostics, 'tool-arguments-flattened');
    expect(d.path).toBe('$.params.occasion');
    expect(d.message).toContain('"occasion", "budget" sit in params beside "name"');
    expect(d.message).toContain('params.arguments');
    expect(out.diagnostics.map((x) => x.code)).not.toContain('tool-arguments-invalid');
  });

  it('a near-miss method or notification name says which spec name was meant', () => {
    const { f, feed } = session();
    const read = feed(f('c2s', { jsonrpc: '2.0', id: 3, method: 'resources/get', params: { uri: 'ui://gifts' } }));
    expect(only(read.diagnostics, 'method-name').message).toContain('the real name is "resources/read"');
    const log = feed(f('s2c', { jsonrpc: '2.0', method: 'notifications/logging/message', params: { level: 'info', data: 'x' } }));
    expect(only(log.diagnostics, 'notification-name').message).toContain('the real name is "notifications/message"');
    const typo = feed(f('c2s', { jsonrpc: '2.0', id: 4, method: 'tools/lsit' }));
    expect(only(typo.diagnostics, 'method-name').message).toContain('"tools/list"');
    const extension = feed(f('s2c', { jsonrpc: '2.0', method: 'notifications/gift_suggestions', params: { gifts: [] } }));
    expect(extension.diagnostics.map((x) => x.code)).toEqual(['unknown-notification']);
  });
});

describe('mistake 5: notifications as a second reply channel', () => {
  it('a custom notification holding the id of the call in flight is linked to that call', () => {
    const { f, feed } = session();
    const sent = feed(f('c2s', call(7, { name: 'suggest_gifts', arguments: { occasion: 'wedding' } })));
    const out = feed(f('s2c', { jsonrpc: '2.0', method: 'notifications/gift_suggestions', params: { id: 7, gifts: ['a vase'] } }));
    const d = only(out.diagnostics, 'reply-as-notification');
    expect(d.path).toBe('$.params.id');
    expect(d.message).toContain(`tools/call #${sent.exchanges[0]!.id}`);
    expect(out.diagnostics.map((x) => x.code)).not.toContain('unknown-notification');
  });

  it('notifications/progress and notifications/cancelled carry a request id by design: no finding', () => {
    const { f, feed } = session();
    feed(f('c2s', call(8, { name: 'suggest_gifts', arguments: { occasion: 'wedding' }, _meta: { progressToken: 8 } })));
    const progress = feed(f('s2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 8, progress: 1 } }));
    const cancelled = feed(f('c2s', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } }));
    expect([...progress.diagnostics, ...cancelled.diagnostics]).toEqual([]);
  });
});

describe('false findings that are gone', () => {
  it('progressToken in params of notifications/progress is where it belongs, even when the notification wrongly has an id', () => {
    const { f, feed } = session();
    const out = feed(f('s2c', { jsonrpc: '2.0', id: 9, method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }));
    expect(out.diagnostics.map((x) => x.code)).not.toContain('progress-token-misplaced');
    expect(out.diagnostics.map((x) => x.code)).toContain('notification-with-id');
  });

  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('id null on -32700 and -32600 is what JSON-RPC requires (%s)', (rev) => {
    const { f, feed } = session(rev);
    feed(f('c2s', '{"jsonrpc":'));
    const parse = feed(f('s2c', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    const invalid = feed(f('s2c', { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }));
    expect([...parse.diagnostics, ...invalid.diagnostics].filter((d) => d.code === 'envelope-invalid')).toEqual([]);
    const other = feed(f('s2c', { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } }));
    expect(other.diagnostics.map((d) => d.code)).toContain('envelope-invalid');
  });

  it('an ordinary successful result with text says nothing; an empty content says the model gets nothing', () => {
    const { f, feed } = session();
    feed(f('c2s', call(2, { name: 'suggest_gifts', arguments: { occasion: 'wedding' } })));
    expect(feed(f('s2c', { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'a vase' }] } })).diagnostics).toEqual([]);
    feed(f('c2s', call(3, { name: 'suggest_gifts', arguments: { occasion: 'wedding' } })));
    const empty = feed(f('s2c', { jsonrpc: '2.0', id: 3, result: { content: [] } }));
    expect(only(empty.diagnostics, 'tool-result-empty-content').severity).toBe('warning');
  });
});

describe('nearMiss', () => {
  const specNames = [...Object.keys(METHODS), ...Object.keys(NOTIFICATIONS)];

  it('finds the spec name behind any one-character typo of a long name', () => {
    const long = specNames.filter((n) => n.length > 8);
    fc.assert(
      fc.property(fc.constantFrom(...long), fc.nat(), fc.constantFrom('a', 'x', '_', 'q'), (name, at, ch) => {
        const i = at % name.length;
        const typo = name.slice(0, i) + ch + name.slice(i + 1);
        fc.pre(typo !== name);
        const meant = nearMiss(typo, specNames);
        expect(meant).toBeDefined();
        expect(levenshtein(typo, meant!, 2)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('suggests nothing for a spec name itself or a name in a namespace of its own', () => {
    for (const name of specNames) expect(nearMiss(name, specNames)).toBeUndefined();
    for (const name of ['notifications/gift_suggestions', 'gifts/wrap', 'acme/search', 'x']) expect(nearMiss(name, specNames)).toBeUndefined();
  });
});

describe('phantom tools', () => {
  it('a tool another session of the server listed is no phantom, and its arguments are checked against that listing', () => {
    const d = new CaptureDeriver({ validator });
    const a = frameMaker('a');
    const b = frameMaker('b');
    const init = (f: ReturnType<typeof frameMaker>, tools: object[]) => {
      d.ingest(f('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }));
      d.ingest(f('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }));
      d.ingest(f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      d.ingest(f('s2c', { jsonrpc: '2.0', id: 1, result: { tools } }));
    };
    init(a, [{ name: 'echo', inputSchema: { type: 'object' } }]);
    init(b, [{ name: 'echo', inputSchema: { type: 'object' } }, suggestGifts]);
    const out = d.ingest(a('c2s', call(2, { name: 'suggest_gifts', arguments: { occasion: 5 } })));
    expect(out.diagnostics.map((x) => x.code)).toEqual(['tool-arguments-invalid']);
    const ghost = d.ingest(a('c2s', call(3, { name: 'ghost', arguments: {} })));
    expect(ghost.diagnostics.map((x) => x.code)).toEqual(['phantom-tool']);
  });
});
