// Reopening a capture continues it exactly, whether the deriver comes back from the stored
// snapshot (clean close), from an older snapshot plus the frames after it (kill -9), or from the
// frames alone (no snapshot, an unreadable one, one of another version, or one that retention
// has outrun). Reference: the same traffic through one pipeline that never stopped.
import { describe, expect, it } from 'vitest';
import type { FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { warmDeriver } from '../src/capture/deriver-snapshot.js';
import { rebuildDerived } from '../src/capture/rebuild.js';
import { snapshotDerived, tempDbFile } from './store-helpers.js';

/** Calls that stay in flight across every restart point, progress, a cancel, errors, two sessions. */
function traffic(): FrameInput[] {
  const out: FrameInput[] = [];
  const add = (sessionKey: string, direction: FrameInput['direction'], body: unknown, connectionId = `c${out.length}`) =>
    out.push({ ts: 1000 + out.length * 5, sessionKey, direction, transport: 'http-json', kind: 'data', raw: JSON.stringify(body), http: { method: 'POST', path: '/mcp', connectionId } });
  for (const s of ['s1', 's2']) {
    add(s, 'c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `client-${s}`, version: '1' } } });
    add(s, 's2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } });
    add(s, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    add(s, 's2c', { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'suggest_gifts', inputSchema: { type: 'object', properties: { budget: { type: 'number' } }, required: ['budget'] } }] } });
  }
  for (let i = 2; i < 40; i++) {
    const s = i % 2 ? 's1' : 's2';
    add(s, 'c2s', { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: i % 7 ? 'suggest_gifts' : 'ghost', arguments: i % 5 ? { budget: i } : {}, _meta: { progressToken: `p${i}` } } });
    if (i > 4) {
      const j = i - 3; // answers lag behind, so calls are in flight at every cut
      const js = j % 2 ? 's1' : 's2';
      add(js, 's2c', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: `p${j}`, progress: 1 } });
      if (j % 9 === 0) add(js, 'c2s', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: j } });
      add(js, 's2c', j % 4 ? { jsonrpc: '2.0', id: j, result: { content: [{ type: 'text', text: `idea ${j}` }] } } : { jsonrpc: '2.0', id: j, error: { code: -32602, message: 'no' } });
    }
  }
  return out;
}

function reference(frames: FrameInput[]): Record<string, unknown[]> {
  const file = tempDbFile();
  const store = new CaptureStore(file);
  const pipeline = new CapturePipeline(store);
  for (const f of frames) {
    pipeline.record(f);
    pipeline.flush();
  }
  pipeline.close();
  store.close();
  return snapshotDerived(file);
}

type Restart = 'clean close' | 'kill -9' | 'snapshot unreadable' | 'snapshot of another version';

/** Records the frames, restarting at each cut the way `how` says; returns the file. */
function captureWithRestarts(frames: FrameInput[], cuts: number[], how: Restart): string {
  const file = tempDbFile();
  let store = new CaptureStore(file);
  let pipeline = new CapturePipeline(store);
  frames.forEach((f, i) => {
    if (cuts.includes(i)) {
      if (how === 'kill -9') pipeline.flush(); // committed, but no snapshot written on the way out
      else pipeline.close();
      if (how === 'snapshot unreadable') store.db.prepare("UPDATE deriver_snapshot SET state = '{\"version\":1,\"exchanges\":'").run();
      if (how === 'snapshot of another version') store.db.prepare('UPDATE deriver_snapshot SET version = version + 100').run();
      store.close();
      store = new CaptureStore(file);
      pipeline = new CapturePipeline(store);
    }
    pipeline.record(f);
    pipeline.flush();
  });
  pipeline.close();
  store.close();
  return file;
}

describe('warm start', () => {
  const frames = traffic();
  const expected = reference(frames);
  const cuts = [7, 30, 51, 88];

  for (const how of ['clean close', 'kill -9', 'snapshot unreadable', 'snapshot of another version'] as const) {
    it(`continues exactly after a ${how}`, () => {
      expect(snapshotDerived(captureWithRestarts(frames, cuts, how))).toEqual(expected);
    });
  }

  /** One run of mcpscope on `file`: records `slice`, then shuts down cleanly or dies (no snapshot on the way out). */
  const session = (file: string, slice: FrameInput[], end: 'close' | 'die', limits = {}, before?: (store: CaptureStore) => void) => {
    const store = new CaptureStore(file);
    const pipeline = new CapturePipeline(store, limits);
    for (const f of slice) {
      pipeline.record(f);
      pipeline.flush();
    }
    if (end === 'close') pipeline.close();
    before?.(store);
    store.close();
  };
  const warmStart = (file: string) => {
    const store = new CaptureStore(file);
    const warm = warmDeriver(store);
    store.close();
    return warm;
  };

  it('after a clean close restores the snapshot and replays nothing; after kill -9 replays only what came after it', () => {
    const file = tempDbFile();
    session(file, frames.slice(0, 20), 'close');
    expect(warmStart(file)).toMatchObject({ restoredAt: 20, replayed: 0 });
    session(file, frames.slice(20, 50), 'die');
    expect(warmStart(file)).toMatchObject({ restoredAt: 20, replayed: 30 });
  });

  it('replays the frames when retention removed frames the snapshot had not seen', () => {
    const file = tempDbFile();
    session(file, frames.slice(0, 10), 'close');
    // Died: the snapshot still says frame 10, but retention has removed frames 11-35.
    session(file, frames.slice(10, 40), 'die', { maxFrames: 5 });
    const warm = warmStart(file);
    expect(warm.restoredAt).toBeUndefined();
    expect(warm.replayed).toBe(5);
  });

  it('rebuild derives from frames alone and leaves a snapshot that continues its rows', () => {
    const file = tempDbFile();
    session(file, frames.slice(0, 60), 'close', {}, (store) => {
      store.db.prepare("UPDATE deriver_snapshot SET state = 'garbage'").run();
      rebuildDerived(store);
    });
    expect(warmStart(file)).toMatchObject({ restoredAt: 60, replayed: 0 });
    session(file, frames.slice(60), 'close');
    expect(snapshotDerived(file)).toEqual(expected);
  });
});
