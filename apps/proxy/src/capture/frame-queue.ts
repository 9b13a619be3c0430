/**
 * Frames recorded on the tap's thread and not yet handed to a write, in seq order. It counts the
 * text it holds (the bound QUEUE_LIMITS applies to) and keeps the bodies of its large frames whose
 * text is still with the large-frame writer (large-writer.ts): such a frame has `raw` '' and
 * counts no text until it is stored, and its text is then read back from the store, never counted.
 */
import type { Frame } from '@mcpscope/protocol';
import type { LargeBody } from './record-port.js';

/** Where the next tick cuts the queue (`FrameQueue.cut`). */
export interface TickCut {
  /** How many of the queue's first frames the tick writes. */
  write: number;
  /** Whether frames before the next large frame are left for another tick (past the limit). */
  split: boolean;
  /**
   * The large frame right after the written ones, to hand to its writer once they are committed
   * (never when `split`); with `write` 0 it is the queue's first frame and goes to its writer now.
   */
  large: Frame | undefined;
}

export class FrameQueue {
  private frames: Frame[] = [];
  /** Characters of text queued (large frames' text is with their writer, not counted). */
  private chars = 0;
  /** The queued large frames not stored yet, with their bodies. */
  private readonly largeBodies = new Map<Frame, LargeBody>();

  get length(): number {
    return this.frames.length;
  }

  /** Whether the queue holds as much as `limits` allows. */
  full(limits: { frames: number; chars: number }): boolean {
    return this.frames.length >= limits.frames || this.chars >= limits.chars;
  }

  /** The first frame's seq, if any. */
  firstSeq(): number | undefined {
    return this.frames[0]?.seq;
  }

  /** Queues a frame whose text counts `chars` characters. */
  push(frame: Frame, chars: number): void {
    this.chars += chars;
    this.frames.push(frame);
  }

  /** Queues a large frame whose text streams to its writer as `body`. */
  pushLarge(frame: Frame, body: LargeBody): void {
    this.largeBodies.set(frame, body);
    this.frames.push(frame);
  }

  /** The body of a queued large frame not stored yet. */
  largeBody(frame: Frame): LargeBody | undefined {
    return this.largeBodies.get(frame);
  }

  /** The writer is done with a large frame's body (stored, returned or failed). */
  largeDone(frame: Frame): void {
    this.largeBodies.delete(frame);
  }

  /** Drops a large frame its writer failed on. */
  drop(frame: Frame): void {
    this.frames = this.frames.filter((f) => f !== frame);
  }

  /**
   * Where a tick of at most `limit` frames cuts the queue: up to the first large frame not stored
   * yet (the frames before it are written, it goes to its writer, the rest wait for it), or up
   * to `limit`.
   */
  cut(limit: number): TickCut {
    // No large frame queued: nothing to look for.
    const at = this.largeBodies.size === 0 ? -1 : this.frames.findIndex((f) => this.largeBodies.has(f));
    const large = at === -1 ? undefined : this.frames[at];
    const ready = at === -1 ? this.frames.length : at;
    const split = ready > limit;
    return { write: split ? limit : ready, split, large: split ? undefined : large };
  }

  /** Removes and returns the first `n` frames. */
  take(n: number): Frame[] {
    if (n === this.frames.length) {
      const all = this.frames;
      this.frames = [];
      this.chars = 0;
      return all;
    }
    const taken = this.frames.slice(0, n);
    this.frames = this.frames.slice(n);
    // A stored large frame's text is read back from the store: never counted, never measured.
    for (const f of taken) if (!f.stored) this.chars -= f.raw.length;
    this.chars = Math.max(0, this.chars);
    return taken;
  }

  /** Empties the queue, abandoning the large bodies; returns how many frames it held. */
  clear(): number {
    const n = this.frames.length;
    this.frames = [];
    this.chars = 0;
    for (const body of this.largeBodies.values()) body.abandon();
    this.largeBodies.clear();
    return n;
  }
}
