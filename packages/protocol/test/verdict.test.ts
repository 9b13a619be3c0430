// The verdict on each way an exchange can end badly: whose fault, the sentence and the fix a user
// reads, from exchanges and findings the real deriver made.
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, EXCHANGE_VERDICT_KINDS, conversationVerdict, exchangeVerdict, transportFrameText, type Diagnostic, type ExchangeSummary, type Frame } from '../src/index.js';
import { createValidator } from '../src/validate/index.js';
import { frameMaker } from './support/frames.js';
import { chatgptCall, numbered } from './support/hosts.js';

const validator = createValidator();
const tool = { name: 'suggest_gifts', inputSchema: { type: 'object', properties: { occasion: { type: 'string' } }, required: ['occasion'] }, outputSchema: { type: 'object', properties: { gifts: { type: 'array' } }, required: ['gifts'] } };

/** Feeds a session then `frames`; returns the verdict of the exchange the last frame settled. */
function judge(...frames: ((f: ReturnType<typeof frameMaker>) => Frame)[]) {
  const d = new CaptureDeriver({ validator });
  const f = frameMaker();
  const rows = new Map<string, ExchangeSummary>();
  const diagnostics: Diagnostic[] = [];
  const feed = (frame: Frame) => {
    const out = d.ingest(frame);
    for (const ex of out.exchanges) rows.set(ex.id, ex);
    diagnostics.push(...out.diagnostics);
    return out;
  };
  feed(f('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }));
  feed(f('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }));
  feed(f('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  feed(f('s2c', { jsonrpc: '2.0', id: 1, result: { tools: [tool] } }));
  let last: ExchangeSummary | undefined;
  for (const make of frames) {
    const out = feed(make(f));
    last = out.exchanges.at(-1) ?? last;
  }
  const ex = rows.get(last!.id)!;
  return exchangeVerdict({ exchange: ex, diagnostics: diagnostics.filter((x) => x.exchangeId === ex.id || ex.frameSeqs.includes(x.frameSeq)) });
}

const call = (id: number, params: object) => (f: ReturnType<typeof frameMaker>) => f('c2s', { jsonrpc: '2.0', id, method: 'tools/call', params });
const answer = (body: object) => (f: ReturnType<typeof frameMaker>) => f('s2c', { jsonrpc: '2.0', ...body });
const good = call(2, { name: 'suggest_gifts', arguments: { occasion: 'wedding' } });

describe('exchangeVerdict', () => {
  it('says nothing about a call that ended well, or one still waiting', () => {
    expect(judge(good, answer({ id: 2, result: { content: [{ type: 'text', text: 'a vase' }], structuredContent: { gifts: [] } } }))).toBeUndefined();
    expect(judge(good)).toBeUndefined();
  });

  it('server refused: a tool that ran and failed, with the reason as the server said it', () => {
    const v = judge(good, answer({ id: 2, result: { content: [{ type: 'text', text: 'No gifts under 5 EUR' }], isError: true } }))!;
    expect(v).toMatchObject({ kind: 'server-refused', fault: 'server', quote: 'No gifts under 5 EUR' });
    expect(v.sentence).toContain('tools/call suggest_gifts');
    expect(v.sentence).not.toContain('No gifts');
  });

  it('business failure as protocol error: -32603 for a tool that failed', () => {
    const v = judge(good, answer({ id: 2, error: { code: -32603, message: 'out of stock' } }))!;
    expect(v).toMatchObject({ kind: 'business-failure-as-protocol', fault: 'server', quote: 'out of stock' });
    expect(v.fix).toContain('isError: true');
  });

  it('client malformed request: arguments flattened, even when the server answered -32603', () => {
    const v = judge(call(2, { name: 'suggest_gifts', occasion: 'wedding' }), answer({ id: 2, error: { code: -32603, message: 'Internal error' } }))!;
    expect(v).toMatchObject({ kind: 'client-malformed-request', fault: 'client' });
    expect(v.evidence.diagnosticCodes).toEqual(expect.arrayContaining(['tool-arguments-flattened', 'internal-error-for-bad-request']));
  });

  it('server protocol error: -32601 for a spec method, with what to do', () => {
    const v = judge((f) => f('c2s', { jsonrpc: '2.0', id: 5, method: 'prompts/list' }), answer({ id: 5, error: { code: -32601, message: 'Method not found' } }))!;
    expect(v).toMatchObject({ kind: 'server-protocol-error', fault: 'server' });
    expect(v.fix).toContain('capabilities');
  });

  it('protocol problem as business error: an unknown method answered with isError', () => {
    const v = judge((f) => f('c2s', { jsonrpc: '2.0', id: 6, method: 'gifts/wrap' }), answer({ id: 6, result: { content: [{ type: 'text', text: 'nope' }], isError: true } }))!;
    expect(v).toMatchObject({ kind: 'protocol-problem-as-business', fault: 'server' });
  });

  it('server never answered: its JSON answer to the POST left the call out', () => {
    const http = { method: 'POST', path: '/mcp', connectionId: 'p1', requestId: 41 };
    const v = judge(
      (f) => f('c2s', [{ jsonrpc: '2.0', id: 7, method: 'tools/list' }, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'x' } } }], { http }),
      (f) => f('s2c', [{ jsonrpc: '2.0', id: 7, result: { tools: [] } }], { transport: 'http-json', http: { ...http, status: 200, requestId: 41 } }),
    );
    // The last row the answer changed is the tools/call it left out.
    expect(v).toMatchObject({ kind: 'server-never-answered', fault: 'server' });
  });

  it('transport failed and host gave up, from what the tap saw', () => {
    const http = { method: 'POST', path: '/mcp', connectionId: 'p2' };
    const broken = judge(
      (f) => f('c2s', { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'x' } } }, { http }),
      (f) => f('s2c', transportFrameText('stream-error', 'upstream reset the stream'), { kind: 'transport', http }),
    )!;
    expect(broken).toMatchObject({ kind: 'transport-failed', fault: 'transport', quote: 'upstream reset the stream', title: 'The answer stream broke' });
    const left = judge(
      (f) => f('c2s', { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: 'x' } } }, { http: { ...http, connectionId: 'p3' } }),
      (f) => f('c2s', transportFrameText('client-disconnected', 'the client closed the connection'), { kind: 'transport', http: { ...http, connectionId: 'p3' } }),
    )!;
    expect(left).toMatchObject({ kind: 'host-gave-up', fault: 'client' });
  });

  it('the answer broke the rules: structuredContent that breaks the outputSchema, on a row that reads ok', () => {
    const v = judge(good, answer({ id: 2, result: { content: [{ type: 'text', text: 'x' }], structuredContent: { gifts: 'none' } } }))!;
    expect(v).toMatchObject({ kind: 'answer-broke-host-rules', fault: 'server' });
  });

  it('has a fixed set of kinds', () => {
    expect(EXCHANGE_VERDICT_KINDS).toHaveLength(10);
  });

  it('a conversation that listed the tools and never called one: the host never sent the call', () => {
    const d = new CaptureDeriver({ validator, conversations: true });
    for (const frame of numbered(chatgptCall('only-lists', { hostId: 'conv-x' }).slice(0, 5))) d.ingest(frame);
    const [listed] = d.takeConversations();
    expect(conversationVerdict(listed!)).toMatchObject({ kind: 'host-never-called', fault: 'client', title: 'The host never sent the call' });
    expect(conversationVerdict(listed!)!.sentence).toContain('ChatGPT listed the tools once');
    const called = new CaptureDeriver({ validator, conversations: true });
    for (const frame of numbered(chatgptCall('calls', { hostId: 'conv-y' }))) called.ingest(frame);
    expect(conversationVerdict(called.takeConversations()[0]!)).toBeUndefined();
  });
});
