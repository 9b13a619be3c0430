// Thousands of conversations begun between two writes (a burst, a large tick, a rebuild page) all
// reach the capture file: every conversation key a session or an exchange names has its row, and
// the lists the API answers from hold every conversation, whether the deriver still holds it or
// has let it go.
import { describe, expect, it } from 'vitest';
import { MAX_CONVERSATIONS, type FrameInput } from '@mcpscope/protocol';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { CaptureStore } from '../src/capture/capture-store.js';
import { rebuildDerived } from '../src/capture/rebuild.js';
import { derivedRows } from './store-helpers.js';

/** Conversations of one session each (an SDK client of its own), each followed by a session-less call (a host id each). */
const EACH = MAX_CONVERSATIONS;

/** Records the traffic, handing the pipeline `flushEvery` conversations at a time (all at once unless given). */
function record(pipeline: CapturePipeline, flushEvery = Infinity): void {
  let ts = 1_750_000_000_000;
  const frame = (sessionKey: string, direction: 'c2s' | 's2c', body: unknown): FrameInput => ({
    ts: ts++,
    sessionKey,
    direction,
    transport: 'http-json',
    kind: 'data',
    raw: JSON.stringify(body),
    http: { method: 'POST', path: '/mcp', ...(direction === 's2c' ? { status: 200 } : {}) },
  });
  for (let c = 0; c < EACH; c++) {
    const session = `chat-${c}`;
    pipeline.record(frame(session, 'c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `chat-${c}`, version: '1' } } }));
    pipeline.record(frame(session, 's2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } }));
    const call = { name: 'echo', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'openai/session': `host-${c}` } };
    pipeline.record(frame('client:agent', 'c2s', { jsonrpc: '2.0', id: c, method: 'tools/call', params: call }));
    pipeline.record(frame('client:agent', 's2c', { jsonrpc: '2.0', id: c, result: { content: [] } }));
    if (c % flushEvery === flushEvery - 1) pipeline.flush(true);
  }
  // One tick: every frame recorded since the last, derived and written together.
  pipeline.flush(true);
}

/** Conversation keys sessions and exchanges name that have no row. */
function missing(store: CaptureStore): { sessions: number; exchanges: number } {
  const n = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
  return {
    sessions: n('SELECT count(*) AS n FROM sessions WHERE conversation_key IS NOT NULL AND conversation_key NOT IN (SELECT key FROM conversations)'),
    exchanges: n('SELECT count(*) AS n FROM exchanges WHERE conversation_key IS NOT NULL AND conversation_key NOT IN (SELECT key FROM conversations)'),
  };
}

function expectEveryConversation(store: CaptureStore): void {
  expect(missing(store)).toEqual({ sessions: 0, exchanges: 0 });
  const conversations = store.conversations();
  expect(conversations).toHaveLength(2 * EACH);
  expect(new Set(conversations.map((c) => c.hostId ?? c.host)).size).toBe(2 * EACH);
  expect(store.conversationsAt(0, 1).total).toBe(2 * EACH);
  // Every session has its row: EACH of their own, and the session-less client's.
  expect((store.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n).toBe(EACH + 1);
  // Each holds what its one session or call brought.
  for (const c of conversations) expect(c.hostId !== undefined ? c.counts : c.churn).toMatchObject(c.hostId !== undefined ? { ok: 1 } : { sessions: 1, initialize: 1 });
}

describe('conversations begun between two writes', () => {
  it('all reach the file when one tick writes them all', () => {
    const store = new CaptureStore(':memory:');
    const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'in-process' });
    record(pipeline);
    expectEveryConversation(store);
    pipeline.close();
    store.close();
  });

  it('all reach the file when rebuild derives them in pages of thousands, as live capture stored them', () => {
    const store = new CaptureStore(':memory:');
    const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'in-process' });
    // Written a few conversations a tick, as live traffic comes.
    record(pipeline, 16);
    pipeline.close();
    expectEveryConversation(store);
    const live = derivedRows(store.db);

    rebuildDerived(store);
    expectEveryConversation(store);
    expect(derivedRows(store.db)).toEqual(live);
    store.close();
  });
});
