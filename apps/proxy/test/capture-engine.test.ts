// The capture engine (capture-engine.ts) replacing a worker that died: a tick the worker had
// committed is derived again for its texts, never written twice, so listeners hear it whole.
import { describe, expect, it } from 'vitest';
import type { Frame } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CaptureEngine } from '../src/capture/capture-engine.js';
import { InProcessEngine } from '../src/capture/in-process-engine.js';
import type { TickOutcome } from '../src/capture/engine-contract.js';
import { snapshotDerived, tempDbFile, traffic } from './store-helpers.js';

describe('the capture engine', () => {
  it('re-derives a tick its worker committed before dying: the same texts, sessions and conversations included, nothing written twice', () => {
    const file = tempDbFile();
    const store = new CaptureStore(file);
    try {
      const frames: Frame[] = traffic().map((f, i) => ({ ...f, seq: i + 1 }));
      // The worker's engine: its own engine on the file, whose last outcome never reached the tap.
      const worker = new CaptureEngine(store);
      expect(worker.tick({ frames: frames.slice(0, 10), doorRows: [] }).ok).toBe(true);
      const lost = frames.slice(10, 16);
      const committed = worker.tick({ frames: lost, doorRows: [] });
      expect(committed.ok).toBe(true);
      const rows = snapshotDerived(file);

      const replacement = new InProcessEngine(store, lost[0]!.seq - 1);
      let outcome: TickOutcome | undefined;
      replacement.tickCommitted({ frames: lost, requests: [], largeMessages: new WeakMap() }, (o) => (outcome = o));
      expect(outcome?.ok).toBe(true);
      if (!outcome?.ok || !committed.ok) return;
      expect(outcome.texts).toEqual(committed.texts);
      expect(outcome.texts.sessions.length).toBeGreaterThan(0);
      expect(snapshotDerived(file)).toEqual(rows);

      // And the replacement goes on where the worker left off: the next tick derives as it would have.
      let next: TickOutcome | undefined;
      replacement.tick({ frames: frames.slice(16), requests: [], largeMessages: new WeakMap() }, (o) => (next = o));
      expect(next?.ok).toBe(true);
    } finally {
      store.close();
    }
  });
});
