// The lesson's six mistakes committed for real, through the tap, by a server and a client of our
// own (support/mistaken-gift-server.ts), over JSON and SSE answers and in batches. Each case reads
// what a user reads: the row's status, the finding's words, and the verdict at the top of the detail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationsPage, ExchangeDetail, ExchangesPage, ExchangeSummary, ExchangeVerdict } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { apiGet } from './support/api.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startMistakenGiftServer, type MistakenGiftServer } from './support/mistaken-gift-server.js';

let server: MistakenGiftServer;
let app: Mcpscope;

beforeAll(async () => {
  server = await startMistakenGiftServer();
  app = await startTestMcpscope({ target: server.url });
});

afterAll(async () => {
  await app?.close();
  await server?.close();
});

async function post(body: unknown): Promise<string> {
  const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': 'gift-client/1.0' }, body: JSON.stringify(body) });
  return res.text();
}

const call = (id: number | undefined, params: object, sse = false) => ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method: 'tools/call', params: sse ? { ...params, _meta: { sse: true } } : params });

/** The rows the filter finds, newest first, once the tap's frames are stored. */
async function rows(filter: string): Promise<ExchangeSummary[]> {
  await settled(app);
  return (await apiGet<ExchangesPage>(app, `/api/exchanges?filter=${encodeURIComponent(filter)}`)).exchanges;
}
const detail = (id: string) => apiGet<ExchangeDetail>(app, `/api/exchanges/${encodeURIComponent(id)}`);
const finding = (d: ExchangeDetail, code: string) => d.diagnostics.find((x) => x.code === code);

describe('the six mistakes through the tap', () => {
  it.each([false, true])('1. a business failure sent as -32603 (SSE answer: %s): a warning with the fix, and the verdict says so', async (sse) => {
    await post(call(sse ? 101 : 100, { name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 5 } }, sse));
    const [row] = await rows(`id:${sse ? 101 : 100}`);
    expect(row).toMatchObject({ status: 'protocol_error', errorCode: -32603 });
    const d = await detail(row!.id);
    expect(finding(d, 'protocol-error-looks-like-business')).toMatchObject({ severity: 'warning' });
    expect(d.verdict).toMatchObject({ kind: 'business-failure-as-protocol', fault: 'server', quote: 'No gifts under 5 EUR' });
    expect(d.verdict!.fix).toContain('isError: true');
  });

  it('1. an unknown method answered with isError: -32601 was due', async () => {
    await post({ jsonrpc: '2.0', id: 110, method: 'gifts/wrap', params: {} });
    const [row] = await rows('id:110');
    expect(row).toMatchObject({ status: 'business_error', method: 'gifts/wrap' });
    const d = await detail(row!.id);
    expect(finding(d, 'business-error-for-protocol-problem')!.message).toContain('-32601 Method not found');
    expect(d.verdict).toMatchObject({ kind: 'protocol-problem-as-business', fault: 'server' });
  });

  it('1. isError with nothing in content: the model cannot read why', async () => {
    await post(call(120, { name: 'wrap_gift', arguments: { gift: 'vase' } }));
    const [row] = await rows('id:120');
    expect(row).toMatchObject({ status: 'business_error' });
    const d = await detail(row!.id);
    expect(finding(d, 'is-error-without-reason')!.message).toContain('says nothing in content');
    expect(d.verdict).toMatchObject({ kind: 'server-refused', fault: 'server' });
  });

  it('2. tools/call without an id: the id is missing, so no reply can come', async () => {
    await post(call(undefined, { name: 'suggest_gifts', arguments: { occasion: 'no-id' } }));
    const found = (await rows('method:tools/call')).filter((r) => r.kind === 'notification');
    expect(found).toHaveLength(1);
    const d = await detail(found[0]!.id);
    expect(finding(d, 'request-without-id')!.message).toContain('no reply can ever come');
    expect(d.diagnostics.map((x) => x.code)).not.toContain('tool-result-as-notification');
  });

  it('2. the same id on two POSTs in flight: each call gets its own answer, and the reuse is flagged', async () => {
    // SSE answers: the tap records each request when its stream opens, so both are in flight at once.
    const first = post(call(7, { name: 'slow_echo', arguments: { text: 'first', waitFor: 'first' } }, true));
    const second = post(call(7, { name: 'slow_echo', arguments: { text: 'second', waitFor: 'second' } }, true));
    await expect.poll(async () => (await rows('id:7 status:pending')).length).toBe(2);
    server.release('second');
    expect(await second).toContain('echo: second');
    server.release('first');
    expect(await first).toContain('echo: first');
    const both = await rows('id:7');
    expect(both.map((r) => r.status)).toEqual(['ok', 'ok']);
    for (const row of both) {
      const d = await detail(row.id);
      const request = d.frames.find((f) => f.seq === row.requestSeq)!.raw;
      const reply = d.frames.find((f) => f.seq === row.responseSeq)!.raw;
      expect(reply).toContain(request.includes('"first"') ? 'echo: first' : 'echo: second');
    }
    const reused = await detail(both.find((r) => r.startTs === Math.max(...both.map((x) => x.startTs)))!.id);
    expect(finding(reused, 'id-reused-in-flight')).toBeDefined();
  });

  it('2. a batch whose JSON answer leaves an item out: that item was never answered, naming the POST', async () => {
    await post([
      { jsonrpc: '2.0', id: 200, method: 'tools/list' },
      { jsonrpc: '2.0', id: 201, method: 'prompts/list' },
    ]);
    const [listed] = await rows('id:200');
    const [missing] = await rows('id:201');
    expect(listed).toMatchObject({ status: 'ok' });
    expect(missing).toMatchObject({ status: 'transport_error', transportEvent: 'unanswered' });
    const d = await detail(missing!.id);
    expect(d.verdict).toMatchObject({ kind: 'server-never-answered', fault: 'server' });
    expect(d.verdict!.evidence.doorRecordIds.length).toBeGreaterThan(0);
  });

  it('2. a POST whose event stream ends without the reply: never answered; a stream that carried its reply adds no row', async () => {
    await post(call(210, { name: 'forget_me', arguments: {} }, true));
    const [missing] = await rows('id:210');
    expect(missing).toMatchObject({ status: 'transport_error', transportEvent: 'unanswered' });
    expect(missing!.errorMessage).toContain('ended the event stream');
    expect((await detail(missing!.id)).verdict).toMatchObject({ kind: 'server-never-answered' });
    await post(call(211, { name: 'suggest_gifts', arguments: { occasion: 'ok' } }, true));
    const [answered] = await rows('id:211');
    expect(answered).toMatchObject({ status: 'ok' });
    expect((await detail(answered!.id)).frames.map((f) => f.kind)).toEqual(['data', 'data']);
  });

  it('2. a batch over SSE whose stream leaves an item out: that item was never answered', async () => {
    await post([
      { jsonrpc: '2.0', id: 220, method: 'tools/list', params: { _meta: { sse: true } } },
      { jsonrpc: '2.0', id: 221, method: 'prompts/list' },
    ]);
    expect((await rows('id:220'))[0]).toMatchObject({ status: 'ok' });
    expect((await rows('id:221'))[0]).toMatchObject({ status: 'transport_error', transportEvent: 'unanswered' });
  });

  it('4. arguments beside name, answered -32603: the client\'s fault, named field by field, and -32602 was due', async () => {
    await post(call(130, { name: 'suggest_gifts', occasion: 'birthday', budget: 40 }));
    const [row] = await rows('id:130');
    const d = await detail(row!.id);
    expect(finding(d, 'tool-arguments-flattened')!.message).toContain('"occasion", "budget" sit in params beside "name"');
    expect(finding(d, 'internal-error-for-bad-request')!.message).toContain('-32602 Invalid params');
    expect(d.diagnostics.map((x) => x.code)).not.toContain('tool-arguments-invalid');
    expect(d.verdict).toMatchObject({ kind: 'client-malformed-request', fault: 'client' });
  });

  it('4. a near-miss method name says which was meant', async () => {
    await post({ jsonrpc: '2.0', id: 140, method: 'resources/get', params: { uri: 'ui://gifts' } });
    const [row] = await rows('id:140');
    const d = await detail(row!.id);
    expect(finding(d, 'method-name')!.message).toContain('the real name is "resources/read"');
  });

  it('5. a result sent as a custom notification on the call\'s SSE stream is linked to the call', async () => {
    await post(call(150, { name: 'push_gifts', arguments: { occasion: 'wedding' } }, true));
    const [callRow] = await rows('id:150');
    const [note] = await rows('method:notifications/gift_suggestions');
    const d = await detail(note!.id);
    expect(finding(d, 'reply-as-notification')!.message).toContain(`tools/call #${callRow!.id}`);
    expect(d.diagnostics.map((x) => x.code)).not.toContain('unknown-notification');
  });

  it('a ChatGPT conversation that listed the tools and stopped: the host never sent the call', async () => {
    const chatgpt = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'user-agent': 'openai-mcp/1.0.0' };
    for (const body of [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openai-mcp', version: '1.0.0' } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    ]) {
      await fetch(app.mcpUrl, { method: 'POST', headers: chatgpt, body: JSON.stringify(body) });
    }
    await settled(app);
    const { conversations } = await apiGet<ConversationsPage>(app, '/api/conversations');
    const listedOnly = conversations.find((c) => c.host === 'ChatGPT')!;
    const one = await apiGet<{ verdict?: ExchangeVerdict }>(app, `/api/conversations/${listedOnly.key}`);
    expect(one.verdict).toMatchObject({ kind: 'host-never-called', title: 'The host never sent the call' });
  });
});
