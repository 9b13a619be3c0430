// The store updates an exchange row in place when a later tick changes it. An answer captured
// before its request (another stream, capture order) is stored first as an orphan with no method;
// when the request arrives in a later tick the same row becomes that call, and the filters that
// look at what a row is (method, tool, kind) must find it from then on.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFilter, type FrameInput, type SessionSummary } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { CaptureQuery } from '../src/capture/capture-query.js';
import { tempDbFile } from './store-helpers.js';

const frame = (direction: FrameInput['direction'], body: unknown, ts: number): FrameInput => ({
  ts,
  sessionKey: 's1',
  direction,
  transport: 'http-json',
  kind: 'data',
  raw: JSON.stringify(body),
});

function page(store: CaptureStore, filter: string) {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error(`bad filter ${filter}`);
  return new CaptureQuery(store).exchanges(parsed.filter, 50).exchanges;
}

describe('exchange rows across ticks', () => {
  it('an orphan answer becomes the call its late request names, and filters on the call find it', () => {
    const store = new CaptureStore(tempDbFile());
    const pipeline = new CapturePipeline(store);
    pipeline.record(frame('s2c', { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'a scarf' }] } }, 10));
    pipeline.flush();
    expect(page(store, 'status:orphan').map((e) => e.id)).toEqual(['1']);
    expect(page(store, 'tool:suggest_gifts')).toEqual([]);

    pipeline.record(frame('c2s', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'suggest_gifts', arguments: {} } }, 20));
    pipeline.flush();
    const found = page(store, 'method:tools/call tool:suggest_gifts');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: '1', kind: 'request', requester: 'client', method: 'tools/call', target: 'suggest_gifts', status: 'ok' });
    expect(page(store, 'status:orphan')).toEqual([]);
    expect(store.exchange('1')).toMatchObject({ method: 'tools/call', frameSeqs: [2, 1] });
    store.close();
  });

  it('an answer in a later tick moves the row from pending to its outcome', () => {
    const store = new CaptureStore(tempDbFile());
    const pipeline = new CapturePipeline(store);
    pipeline.record(frame('c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wrap_gift' } }, 10));
    pipeline.flush();
    expect(page(store, 'status:pending tool:wrap_gift').map((e) => e.id)).toEqual(['1']);
    pipeline.record(frame('s2c', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'no ribbon' } }, 25));
    pipeline.flush();
    expect(page(store, 'status:pending')).toEqual([]);
    expect(page(store, 'code:-32602 tool:wrap_gift')).toEqual([expect.objectContaining({ id: '1', status: 'protocol_error', latencyMs: 15 })]);
    store.close();
  });

  it('a long capture, checkpointed in the background, is one settled file after close', () => {
    const file = tempDbFile();
    const store = new CaptureStore(file);
    const pipeline = new CapturePipeline(store);
    for (let i = 0; i < 6000; i++) {
      pipeline.record(frame(i % 2 ? 's2c' : 'c2s', i % 2 ? { jsonrpc: '2.0', id: i - 1, result: {} } : { jsonrpc: '2.0', id: i, method: 'ping' }, i));
      if (i % 256 === 255) pipeline.flush();
    }
    pipeline.close();
    store.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new CaptureStore(file);
    expect(reopened.head()).toBe(6000);
    expect(page(reopened, 'status:pending')).toEqual([]);
    reopened.close();
  });
});

describe('session rows across ticks', () => {
  it('a session keeps its latest summary, and moves when its conversation changes', () => {
    const store = new CaptureStore(tempDbFile());
    const session = (lastTs: number, conversationKey?: string): SessionSummary => ({ sessionKey: 's1', transport: 'http-json', firstTs: 1, lastTs, counts: { ok: lastTs }, ...(conversationKey ? { conversationKey } : {}) });
    const write = (s: SessionSummary) => store.write({ frames: [], exchanges: [], sessions: [s], diagnostics: [], conversations: [] });
    write(session(1));
    write(session(2, 'c1'));
    write(session(3, 'c1'));
    expect(store.sessions()).toEqual([expect.objectContaining({ lastTs: 3, counts: { ok: 3 }, conversationKey: 'c1' })]);
    expect(store.sessionsOf('c1').map((s) => s.lastTs)).toEqual([3]);
    write(session(4, 'c2'));
    expect(store.sessionsOf('c1')).toEqual([]);
    expect(store.sessionsOf('c2').map((s) => s.lastTs)).toEqual([4]);
    write(session(5));
    expect(store.sessionsOf('c2')).toEqual([]);
    expect(store.sessions()).toEqual([expect.objectContaining({ lastTs: 5 })]);
    store.close();
  });
});

describe('a batch row', () => {
  it('shows its own item findings, not its siblings\', and the batch-wide ones', () => {
    const store = new CaptureStore(tempDbFile());
    const pipeline = new CapturePipeline(store);
    pipeline.record(frame('c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }, 1));
    pipeline.record(frame('s2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }, 2));
    pipeline.record(frame('c2s', [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { toolName: 'suggest_gifts', arguments: {} } }], 3));
    pipeline.flush();
    const [list] = page(store, 'method:tools/list');
    const [call] = page(store, 'method:tools/call');
    const codes = (id: string) => store.diagnosticsFor(store.exchange(id)!).map((d) => d.code);
    expect(codes(list!.id)).toEqual(['batch-not-allowed']);
    expect(codes(call!.id)).toEqual(expect.arrayContaining(['batch-not-allowed', 'tool-call-wrong-field']));
    store.close();
  });
});
