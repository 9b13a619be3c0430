/**
 * The dashboard benchmarks' traffic, generated without I/O: 40 sessions of mostly ok tool calls,
 * with protocol errors (-32602), tool errors (isError), tools/list, calls left pending and
 * notifications; bodies of a few hundred bytes. `buildCaptureFile` writes it into a capture file
 * through the real capture pipeline (derive, pair, SQLite), as the tap would.
 */
import type { FrameInput } from '@mcpscope/protocol';
import { CapturePipeline, CaptureStore } from '@mcpscope/proxy/capture';
import { recordTraffic } from './capture-traffic.js';

export const SESSIONS = 40;

/** A deterministic mix: mostly ok tool calls, some errors, tool errors, lists, pending and notifications. */
export function* dashboardTraffic(count: number, startTs: number, idBase = 0): Generator<FrameInput> {
  for (let i = 0; i < count; i++) {
    const s = i % SESSIONS;
    const sessionKey = `bench-session-${s}`;
    const ts = startTs + i * 2;
    const id = idBase + i;
    const http = { method: 'POST', path: '/mcp', requestHeaders: { 'user-agent': `agent-${s}/1.0`, 'mcp-session-id': sessionKey } };
    if (i < SESSIONS) {
      yield { ts, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', http, raw: JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `agent-${s}`, version: '1.0' } } }) };
      yield { ts: ts + 1, sessionKey, direction: 's2c', transport: 'http-json', kind: 'data', http, raw: JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'bench', version: '1' } } }) };
      continue;
    }
    if (i % 50 === 7) {
      yield { ts, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', http, raw: '{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}' };
      continue;
    }
    const method = i % 10 === 3 ? 'tools/list' : 'tools/call';
    const tool = i % 3 === 0 ? 'wrap_gift' : 'suggest_gifts';
    const params = method === 'tools/call' ? { name: tool, arguments: { occasion: 'birthday', budget: i % 200 } } : {};
    yield { ts, sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', http, raw: JSON.stringify({ jsonrpc: '2.0', id, method, params }) };
    if (i % 97 === 5) continue; // left pending
    const latency = (i * 7919) % 400;
    const answer =
      i % 41 === 0
        ? { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params' } }
        : i % 29 === 0
          ? { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'No gift fits' }] } }
          : { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `Gift ideas #${i}` }], structuredContent: { gifts: [{ name: 'Mug', price: 12 }] } } };
    yield { ts: ts + latency, sessionKey, direction: 's2c', transport: 'http-json', kind: 'data', http: { ...http, status: 200 }, raw: JSON.stringify(answer) };
  }
}

/** Frames for `exchanges` exchanges into a new capture file (closed when this returns). */
export function buildCaptureFile(file: string, exchanges: number, startTs = Date.now() - exchanges * 2): { frames: number; seconds: number } {
  const started = performance.now();
  const store = new CaptureStore(file);
  const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'in-process' });
  let frames = 0;
  for (const f of dashboardTraffic(exchanges, startTs)) {
    pipeline.record(f);
    if (++frames % 4000 === 0) pipeline.flush();
  }
  pipeline.close();
  store.close();
  return { frames, seconds: (performance.now() - started) / 1000 };
}

/**
 * A host's churn into a new capture file: `sessions` sessions (each opened with initialize,
 * initialized and tools/list) and `calls` tools/call spread over them, every POST with its door
 * record (bench/support/capture-traffic.ts), through the real pipeline; before them,
 * `conversations` conversations of one session each. Door records: one per such conversation,
 * then 3 per churned session plus one per call.
 */
export function buildChurnCaptureFile(file: string, sessions: number, calls: number, conversations = 0): { seconds: number } {
  const started = performance.now();
  const store = new CaptureStore(file);
  const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'in-process' });
  // One write per 16 of the generator's flushes (about 8,000 frames): each write is a commit to disk.
  let asked = 0;
  const flush = () => void (++asked % 16 === 0 && pipeline.flush(true));
  recordTraffic({ record: (f) => pipeline.record(f), nextDoorId: () => pipeline.nextDoorId(), doorChanged: (r) => pipeline.doorChanged(r), flush }, calls, sessions, conversations);
  pipeline.close();
  store.close();
  return { seconds: (performance.now() - started) / 1000 };
}
