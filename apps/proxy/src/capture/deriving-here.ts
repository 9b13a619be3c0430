/**
 * Deriving on the tap's thread, while it happens there: until the tick writer's thread is up and
 * takes it over (tick-writer.ts), on `:memory:`, and after that thread died. The pipeline asks
 * `settle()` between writes, where deriving may move: to the thread once it can take it (the
 * deriver here is dropped: the thread warms its own from the store), and back here if the thread
 * died (warmed from the store again, as a restart does: deriver-snapshot.ts).
 *
 * While it derives here it also keeps the periodic snapshot (SNAPSHOT_EVERY frames, and on close);
 * once the thread derives, the thread does.
 */
import type { CaptureDeriver, Frame, Message } from '@mcpscope/protocol';
import { SNAPSHOT_EVERY, saveSnapshot, warmDeriver } from './deriver-snapshot.js';
import { NOTHING_DERIVED, derive, type DerivedBatch } from './rederive.js';
import type { CaptureStore } from './capture-store.js';

export class DerivingHere {
  private deriver: CaptureDeriver | undefined;
  /** Frames derived here since the stored snapshot was taken. */
  private sinceSnapshot = 0;

  /** Warms a deriver from the store (a pipeline starts deriving here). */
  constructor(
    private readonly store: CaptureStore,
    private readonly noteError: (err: unknown) => void,
  ) {
    this.warm();
  }

  /** Whether the next write is derived here (else on the tick writer's thread). */
  get active(): boolean {
    return this.deriver !== undefined;
  }

  /** Between writes, with everything derived here committed: where deriving happens may change. */
  settle(): void {
    if (this.deriver && this.store.threadCanDerive) {
      this.store.adoptDeriving();
      this.deriver = undefined;
    } else if (!this.deriver && !this.store.threadDerives) {
      this.warm(); // the thread died between writes
    }
  }

  /** A deriver of this thread's, warmed from the store (the thread died under a write, or none was here). */
  warm(): void {
    const warm = warmDeriver(this.store);
    this.deriver = warm.deriver;
    this.sinceSnapshot = warm.replayed;
  }

  /** Derives `frames` here; a frame the deriver cannot take leaves them all underived (still evidence, stored). */
  derive(frames: Frame[], largeMessages: WeakMap<Frame, Message>): DerivedBatch {
    if (frames.length === 0) return NOTHING_DERIVED;
    try {
      return derive(this.deriver!, frames, largeMessages);
    } catch (err) {
      this.noteError(err);
      return NOTHING_DERIVED;
    }
  }

  /** After a write of `frames`: the snapshot, every SNAPSHOT_EVERY frames derived here. */
  written(frames: readonly Frame[]): void {
    if (!this.deriver || frames.length === 0) return;
    this.sinceSnapshot += frames.length;
    if (this.sinceSnapshot < SNAPSHOT_EVERY) return;
    // As of this write's last frame: frames queued meanwhile are not derived yet.
    this.sinceSnapshot = 0;
    saveSnapshot(this.store, this.deriver, frames[frames.length - 1]!.seq);
  }

  /** The last snapshot, at close: here, or on the thread when it derives. */
  close(seq: number): void {
    if (this.deriver) saveSnapshot(this.store, this.deriver, seq);
    else this.store.snapshotOnThread();
  }
}
