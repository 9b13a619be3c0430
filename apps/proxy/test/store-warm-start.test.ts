// Reopening a capture continues it exactly, whether the deriver comes back from the stored
// snapshot (clean close), from an older snapshot plus the frames after it (kill -9), or from the
// frames alone (no snapshot, an unreadable one, one of another version, or one that retention
// has outrun). Reference: the same traffic through one pipeline that never stopped.
import { describe, expect, it } from 'vitest';
import type { FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { warmDeriver } from '../src/capture/capture-engine.js';
import { rebuildDerived } from '../src/capture/rebuild.js';
import { snapshotDerived, tempDbFile, traffic } from './store-helpers.js';

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
