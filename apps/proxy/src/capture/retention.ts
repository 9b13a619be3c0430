/**
 * Retention: `--max-frames N` and `--max-bytes N` keep the newest frames within the limits and
 * remove the oldest, never silently: every trim is reported (the live hub turns it into a
 * `retention` event) and the running total is kept in the store's meta table for the API.
 *
 * Removing frames removes what was derived only from them: exchanges that started and last
 * changed before the cut, diagnostics and frame links of removed frames. Sessions stay (they are
 * few and name the clients that were seen). The newest frame is always kept, even when it alone
 * is over `--max-bytes`.
 *
 * Door records (HTTP requests at the tap) follow: none older than the oldest frame kept, and with
 * `--max-frames N` at most N of them (their bodies are bounded, so a count bounds their bytes).
 *
 * The frames' count and bytes are kept as a running tally, never counted over the whole table
 * when a writer starts (a full read of a multi-GB file): with limits, each trim and each close
 * saves the tally in the meta table with the head it covers, and a start adds only the frames
 * after that head (a range of the primary key). A tally no longer true is recounted once: when
 * frames were removed since it was saved (the oldest kept moved), or the bytes were not kept
 * (saved without --max-bytes). Without limits nothing is counted.
 *
 * Templates (templates.ts) that no row kept names are removed too, once the frames removed
 * since the last time outnumber the frames kept: finding them reads every row kept, so its cost
 * per frame removed stays constant.
 */
import type { Frame, RetentionInfo } from '@mcpscope/protocol';
import type { CaptureStore } from './capture-store.js';
import type { CaptureReader } from './capture-reader.js';
import { collectUnreferencedTemplates } from './templates.js';

export interface RetentionLimits {
  maxFrames?: number;
  maxBytes?: number;
}

export interface Trim {
  /** Frames removed by this trim. */
  removedFrames: number;
  oldestSeq: number;
}

const REMOVED_KEY = 'retention.removed_frames';
const OLDEST_KEY = 'retention.oldest_seq';
/** The tally: frames and bytes up to frame `head`, saved when the oldest kept was `oldest`; bytes -1 when not kept. */
const TALLY = { head: 'retention.tally_head', count: 'retention.tally_frames', bytes: 'retention.tally_bytes', oldest: 'retention.tally_oldest' } as const;

/** Door records are counted against `--max-frames` every this many writes, not on every tick. */
const DOOR_CHECK_EVERY = 1000;

export class Retention {
  private count = 0;
  private bytes = 0;
  private doorWrites = 0;
  private removedSinceTemplates = 0;

  constructor(
    private readonly store: CaptureStore,
    private readonly limits: RetentionLimits,
  ) {
    if (!this.active) return;
    const meta = (key: string) => store.meta(key);
    const usable = meta(TALLY.oldest) === meta(OLDEST_KEY) && (limits.maxBytes === undefined || meta(TALLY.bytes) >= 0);
    const from = usable ? { head: meta(TALLY.head), count: meta(TALLY.count), bytes: Math.max(0, meta(TALLY.bytes)) } : { head: 0, count: 0, bytes: 0 };
    const sum = limits.maxBytes === undefined ? '0' : 'COALESCE(SUM(bytes), 0)';
    const after = store.db.prepare(`SELECT COUNT(*) AS n, ${sum} AS b FROM frames WHERE seq > ?`).get(from.head) as { n: number; b: number };
    this.count = from.count + after.n;
    this.bytes = from.bytes + after.b;
  }

  /** Saves the tally for the next start (run at close; each trim saves it too). */
  saveTally(): void {
    if (!this.active) return;
    this.store.db.transaction(() => this.writeTally(this.count, this.bytes))();
  }

  private writeTally(count: number, bytes: number): void {
    this.store.setMeta(TALLY.head, this.store.head());
    this.store.setMeta(TALLY.count, count);
    this.store.setMeta(TALLY.bytes, this.limits.maxBytes === undefined ? -1 : bytes);
    this.store.setMeta(TALLY.oldest, this.store.meta(OLDEST_KEY));
  }

  get active(): boolean {
    return this.limits.maxFrames !== undefined || this.limits.maxBytes !== undefined;
  }

  state(): RetentionInfo {
    return readRetentionState(this.store);
  }

  /** Accounts for frames (and door records) just written and trims when over a limit. */
  afterWrite(frames: readonly Pick<Frame, 'raw' | 'stored'>[], doorRecords = 0): Trim | undefined {
    this.count += frames.length;
    // Bytes count only against --max-bytes; measuring every frame's UTF-8 length costs the tap's thread.
    if (this.limits.maxBytes !== undefined) for (const f of frames) this.bytes += f.stored ? f.stored.bytes : Buffer.byteLength(f.raw);
    this.doorWrites += doorRecords;
    const trim = this.enforce();
    if (this.limits.maxFrames !== undefined && this.doorWrites >= DOOR_CHECK_EVERY) {
      this.doorWrites = 0;
      this.store.door.trim(this.limits.maxFrames, undefined);
    }
    return trim;
  }

  /** Trims to the limits now (also run at start, in case the limits shrank since last time). */
  enforce(): Trim | undefined {
    if (!this.active) return undefined;
    const { maxFrames, maxBytes } = this.limits;
    const overFrames = maxFrames !== undefined && this.count > maxFrames;
    const overBytes = maxBytes !== undefined && this.bytes > maxBytes;
    if (!overFrames && !overBytes) return undefined;
    const db = this.store.db;
    let keepFrom = 0;
    if (overFrames) {
      const row = db.prepare('SELECT seq FROM frames ORDER BY seq LIMIT 1 OFFSET ?').get(this.count - maxFrames!) as { seq: number } | undefined;
      keepFrom = row?.seq ?? 0;
    }
    if (overBytes) {
      let excess = this.bytes - maxBytes!;
      for (const row of db.prepare('SELECT seq, bytes FROM frames ORDER BY seq').iterate() as Iterable<{ seq: number; bytes: number }>) {
        if (excess <= 0) {
          keepFrom = Math.max(keepFrom, row.seq);
          break;
        }
        excess -= row.bytes;
        keepFrom = Math.max(keepFrom, row.seq + 1);
      }
    }
    keepFrom = Math.min(keepFrom, this.store.head());
    const gone = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS b FROM frames WHERE seq < ?').get(keepFrom) as { n: number; b: number };
    if (gone.n === 0) return undefined;
    db.transaction(() => {
      db.prepare('DELETE FROM frames WHERE seq < ?').run(keepFrom);
      db.prepare('DELETE FROM exchanges WHERE sort_key < ? AND updated_seq < ?').run(keepFrom, keepFrom);
      db.prepare('DELETE FROM diagnostics WHERE frame_seq < ?').run(keepFrom);
      db.prepare('DELETE FROM frame_exchanges WHERE frame_seq < ?').run(keepFrom);
      this.store.setMeta(REMOVED_KEY, this.store.meta(REMOVED_KEY) + gone.n);
      this.store.setMeta(OLDEST_KEY, keepFrom);
      this.writeTally(this.count - gone.n, this.bytes - gone.b);
    })();
    this.count -= gone.n;
    this.bytes -= gone.b;
    const oldestTs = (db.prepare('SELECT ts FROM frames WHERE seq >= ? ORDER BY seq LIMIT 1').get(keepFrom) as { ts: number } | undefined)?.ts;
    this.store.door.trim(maxFrames, oldestTs);
    this.removedSinceTemplates += gone.n;
    if (this.removedSinceTemplates >= this.count) {
      this.removedSinceTemplates = 0;
      db.transaction(() => collectUnreferencedTemplates(db))();
    }
    return { removedFrames: gone.n, oldestSeq: keepFrom };
  }
}

export function readRetentionState(store: CaptureReader): RetentionInfo {
  return { removedFrames: store.meta(REMOVED_KEY), oldestSeq: store.meta(OLDEST_KEY) };
}
