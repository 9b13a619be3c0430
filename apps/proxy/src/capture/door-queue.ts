/**
 * Door records waiting for the capture pipeline's next tick (capture-pipeline.ts's header): the
 * tap's recorder changes a record in place and queues it; a tick takes the ready ones and gives
 * each a new `rev`. A record whose answer is still under way waits up to OPEN_RECORD_DELAY_MS
 * before its first write, so the usual request (answered in a few ms) is written once, whole,
 * instead of at its start, its head and its end; a long stream still shows within that delay.
 */
import type { DoorRecord } from '@mcpscope/protocol';

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
