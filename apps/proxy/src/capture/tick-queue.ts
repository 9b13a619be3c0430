/**
 * What waits on the tap's thread for the capture pipeline's next tick (capture-pipeline.ts), and
 * where that tick cuts it: the frames recorded (FrameQueue) and the door records changed
 * (DoorQueue) since the last tick took them.
 *
 * Frames are in seq order. The queue counts the text it holds (the bound QUEUE_LIMITS applies to)
 * and keeps the bodies of its large frames whose text is still with the large-frame writer
 * (large-writer.ts): such a frame has `raw` '' and counts no text until it is stored, and its text
 * is then read back from the store, never counted.
 *
 * Door records: the tap's recorder changes a record in place and queues it; a tick takes the ready
 * ones and gives each a new `rev`. A record whose answer is still under way waits up to
 * OPEN_RECORD_DELAY_MS before its first write, so the usual request (answered in a few ms) is
 * written once, whole, instead of at its start, its head and its end; a long stream still shows
 * within that delay.
 */import type { DoorRecord, Frame } from '@mcpscope/protocol';
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

/** How long a door record whose answer is still under way waits for its first write. */
export const OPEN_RECORD_DELAY_MS = 1000;

/** What the queue asks of its pipeline: a tick soon (`nextTurn` for a backlog), and one when the delay is up. */
export interface DoorTicks {
  schedule(nextTurn: boolean): void;
  tick(): void;
}

export class DoorQueue {
  /** Records changed since the last tick took them, by id. */
  private readonly queued = new Map<number, DoorRecord>();
  /** Set while records still under way wait for their first write. */
  private timer: NodeJS.Timeout | undefined;
  private id: number;
  private lastRev: number;

  /** `heads`: the capture file's highest id and rev, to continue from. */
  constructor(
    heads: { id: number; rev: number },
    private readonly ticks: DoorTicks,
  ) {
    this.id = heads.id;
    this.lastRev = heads.rev;
  }

  get size(): number {
    return this.queued.size;
  }

  /** The id for a new record (arrival order, continuing the file's). */
  nextId(): number {
    return ++this.id;
  }

  /** The highest `rev` given (the WebSocket's door cursor). */
  get rev(): number {
    return this.lastRev;
  }

  /** A record was created or changed (in place): it is written with a coming tick. */
  changed(record: DoorRecord): void {
    this.queued.set(record.id, record);
    // A record still under way is not written before OPEN_RECORD_DELAY_MS, so its arrival, head
    // and frames need no tick of their own: the timer covers it, and its end (usually within the
    // tick of its last frame) schedules the write.
    if (record.end === 'open') this.armTimer();
    else this.ticks.schedule(false);
  }

  /**
   * The records to write now, each with a new `rev`; the rest wait for the timer, or, past
   * `limit` (a backlog), for the next tick. With `everything`, records under way too.
   */
  take(everything: boolean, limit: number): DoorRecord[] {
    const ready: DoorRecord[] = [];
    const now = performance.timeOrigin + performance.now();
    for (const [id, r] of this.queued) {
      if (!everything && r.end === 'open' && now - r.ts < OPEN_RECORD_DELAY_MS) continue;
      if (ready.length === limit) {
        this.ticks.schedule(true);
        break;
      }
      r.rev = ++this.lastRev;
      ready.push(r);
      this.queued.delete(id);
    }
    if (this.queued.size > 0) this.armTimer();
    return ready;
  }

  /** Forgets what waits (capture paused: those states are not written); returns how many. */
  clear(): number {
    const n = this.queued.size;
    this.queued.clear();
    return n;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private armTimer(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ticks.tick();
    }, OPEN_RECORD_DELAY_MS);
    this.timer.unref();
  }
}
