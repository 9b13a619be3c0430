/**
 * The tick writer's thread (tick-writer.ts says why it exists): a module worker with its own
 * connection to the capture file. It runs two kinds of write, each in one transaction:
 *
 * - `tick`: frames and door records as the pipeline queued them. Once the pipeline has handed
 *   deriving over (`adopt`), this thread owns the capture's deriver: it derives the frames, encodes
 *   the write (tick-ops.ts), runs it, and answers with the JSON texts it stored (the live hub sends
 *   them as they are). The tap's thread then does none of the three.
 * - `write`: a list the tap's thread already encoded (its own deriving, before the hand-off, and a
 *   write held on a full disk, retried as it was first made: never derived twice).
 *
 * The thread warms its deriver from the store while it starts, as opening a capture does
 * (deriver-snapshot.ts), and derives a few made-up calls on a throwaway deriver, so the schema
 * validators are compiled and the code is hot before the first real tick: otherwise the first
 * write after the hand-over took about 50 ms instead of 5 (25 ms warming, 25 ms of first-time
 * compiling), and a caller that reads right after a call (an agent, a test) found nothing. The
 * pipeline sends `adopt` between writes, when everything it derived is committed: the thread
 * derives the frames committed since its warm-up (a handful), so its deriver continues exactly
 * where the pipeline's left off. From then on this thread keeps the periodic snapshot.
 *
 * Failures keep the pipeline's rules (capture-pipeline.ts's header): a deriver that throws leaves
 * the frames stored underived; a write refused for anything but the storage is retried here
 * without its derived rows; what still fails goes back to the pipeline with its encoded list, to
 * hold (a full disk) or to count as not recorded.
 */
import type { CaptureDeriver, DoorRecord, Frame, Message } from '@mcpscope/protocol';
import { workerData } from 'node:worker_threads';
import { workerAnswerer } from './answering-worker.js';
import { openSqlite } from './sqlite.js';
import { TICK_SQL, TickOps, applyTickOps, type TickTexts } from './tick-ops.js';
import { CaptureReader } from './capture-reader.js';
import { SNAPSHOT_EVERY, saveSnapshot, warmDeriver } from './deriver-snapshot.js';
import { NOTHING_DERIVED, derive, hasRows, rederiveInto, type DerivedBatch } from './rederive.js';
import { primeDeriving } from './prime-deriving.js';
import { storageProblem } from './capture-health.js';
import type { ReplayLink } from './replay-links.js';
import { readFrames } from './tick-wire.js';

/** What the thread is started with. */
export interface TickThreadData {
  file: string;
  busyMs: number;
  autocheckpoint: number;
}

/** A write's list and the texts it stores. */
export interface EncodedWrite {
  ops: unknown[];
  texts: TickTexts;
}

/** Frames and door records to derive and write here (tick-wire.ts); large frames' messages (from their skeletons) by index. */
export interface TickRequest {
  type: 'tick';
  id: number;
  /** `flattenFrames`. */
  frames: unknown[];
  /** Door records as JSON texts (`doorTexts`). */
  requests: string[];
  messages: [number, Message][];
  /** Replay links made since the last tick (the store's table is where they live; this thread annotates with them). */
  links: ReplayLink[];
}

export type ThreadRequest = TickRequest | { type: 'write'; id: number; ops: unknown[] } | { type: 'adopt' } | { type: 'snapshot'; id: number } | { type: 'stop' };

/** An error as it crosses the thread: its SQLite code kept (capture-health.ts `storageProblem`). */
export interface ThreadFailure {
  message: string;
  code?: string;
  errcode?: number;
}

export interface ThreadAnswer {
  id: number;
  ready?: true;
  /** The write committed, with these texts (a `tick`'s; a `write`'s are the caller's). */
  texts?: TickTexts;
  /** The write failed: why, and (a `tick`'s) the list to hold and retry. */
  error?: ThreadFailure;
  held?: EncodedWrite;
  /** What went wrong on the way but did not stop the write (a deriver error, derived rows refused). */
  noted?: ThreadFailure[];
}

const failure = (err: unknown): ThreadFailure => {
  const e = err as { message?: unknown; code?: unknown; errcode?: unknown } | undefined;
  return { message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined, errcode: typeof e?.errcode === 'number' ? e.errcode : undefined };
};

/** A tick as read here: the frames and door records, and the JSON texts they came as (stored as they are). */
interface Tick {
  id: number;
  frames: Frame[];
  httpJson: (string | null)[];
  requests: DoorRecord[];
  requestTexts: string[];
}


class TickThread {
  private readonly statements;
  private readonly transaction: (ops: unknown[]) => void;
  private readonly reader: CaptureReader;
  private deriver: CaptureDeriver | undefined;
  private sinceSnapshot = 0;
  /** The last frame derived here, and whether every write through it committed (a snapshot must not cover a held write). */
  private derivedThrough = 0;
  private clean = true;
  /** Set once the pipeline has handed deriving over (ticks come only after it). */
  private adopted = false;

  constructor(private readonly db: ReturnType<typeof openSqlite>) {
    // The settings of the store's own connection (capture-store.ts): per connection in SQLite.
    db.exec(`PRAGMA synchronous = NORMAL; PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY; PRAGMA wal_autocheckpoint = ${(workerData as TickThreadData).autocheckpoint}`);
    this.statements = TICK_SQL.map((sql) => (sql === '' ? undefined! : db.prepare(sql)));
    this.transaction = db.transaction((ops: unknown[]) => applyTickOps(this.statements, ops));
    this.reader = new CaptureReader(db);
    this.warm();
  }

  /** A deriver that has seen every frame stored so far (`derivedThrough`). */
  private warm(): void {
    const warm = warmDeriver(this.reader);
    this.deriver = warm.deriver;
    this.sinceSnapshot = warm.replayed;
    this.derivedThrough = warm.through;
  }

  /** Takes deriving over: the frames the pipeline stored since the warm-up, then the ticks. */
  adopt(): void {
    // Retention removed frames this deriver never saw (a tiny --max-frames and a slow start): start over.
    if (this.reader.oldest() > this.derivedThrough + 1) this.warm();
    else this.sinceSnapshot += rederiveInto(this.reader, this.deriver!, (frames) => (this.derivedThrough = frames[frames.length - 1]!.seq), this.derivedThrough);
    this.adopted = true;
    void this.reader.replayLinks; // the table as it is now: later links come with the ticks
  }

  tick(m: TickRequest): ThreadAnswer {
    const noted: ThreadFailure[] = [];
    const links = this.reader.replayLinks;
    for (const link of m.links) links.learn(link);
    const tick: Tick = { id: m.id, ...readFrames(m.frames), requests: m.requests.map((t) => JSON.parse(t) as DoorRecord), requestTexts: m.requests };
    const frames = tick.frames;
    let derived = NOTHING_DERIVED;
    if (frames.length > 0) {
      try {
        if (!this.adopted || !this.deriver) throw new Error('the tick writer thread was given frames to derive before the pipeline handed deriving over');
        const messages = new WeakMap<Frame, Message>(m.messages.map(([i, message]) => [frames[i]!, message]));
        derived = derive(this.deriver, frames, messages);
      } catch (err) {
        // A frame the deriver could not take: the frames are still evidence, stored underived.
        noted.push(failure(err));
      }
      this.derivedThrough = frames[frames.length - 1]!.seq;
    }
    const full = this.encode(tick, derived);
    try {
      this.transaction(full.ops);
    } catch (err) {
      if (storageProblem(err) !== undefined || !hasRows(derived)) return this.failed(tick, err, full, noted);
      // Not the storage: something derived from these frames. Keep the frames themselves.
      noted.push(failure(err));
      const bare = this.encode(tick, NOTHING_DERIVED);
      try {
        this.transaction(bare.ops);
      } catch (again) {
        return this.failed(tick, again, bare, noted);
      }
      return this.committed(tick, bare, noted);
    }
    return this.committed(tick, full, noted);
  }

  write(id: number, ops: unknown[]): ThreadAnswer {
    try {
      this.transaction(ops);
    } catch (err) {
      return { id, error: failure(err) };
    }
    // A held write went in: what this thread derived is all stored again.
    this.clean = true;
    return { id };
  }

  /** The deriver's snapshot, when what it covers is all committed (else the next open replays more, as after kill -9). */
  snapshot(id: number): ThreadAnswer {
    try {
      if (this.adopted && this.deriver && this.clean && this.derivedThrough > 0) saveSnapshot(this.reader, this.deriver, this.derivedThrough);
    } catch (err) {
      return { id, error: failure(err) };
    }
    return { id };
  }

  stop(): void {
    this.db.close();
  }

  private encode(m: Tick, derived: DerivedBatch): EncodedWrite {
    const ops = new TickOps();
    ops.frames(m.frames, m.httpJson);
    if (m.requests.length > 0) ops.door(m.requests, m.requestTexts);
    ops.derived(derived, m.frames[0]?.seq ?? 0, (ex) => this.reader.replayLinks.annotate(ex));
    return { ops: ops.ops, texts: ops.texts };
  }

  private committed(m: Tick, write: EncodedWrite, noted: ThreadFailure[]): ThreadAnswer {
    this.sinceSnapshot += m.frames.length;
    if (this.adopted && this.deriver && this.sinceSnapshot >= SNAPSHOT_EVERY) {
      try {
        saveSnapshot(this.reader, this.deriver, this.derivedThrough);
        this.sinceSnapshot = 0;
      } catch (err) {
        noted.push(failure(err));
      }
    }
    // The door records' texts are the pipeline's own (it sent them).
    return { id: m.id, texts: { ...write.texts, requests: [] }, ...(noted.length > 0 ? { noted } : {}) };
  }

  private failed(m: Tick, err: unknown, held: EncodedWrite, noted: ThreadFailure[]): ThreadAnswer {
    this.clean = false;
    return { id: m.id, error: failure(err), held, ...(noted.length > 0 ? { noted } : {}) };
  }
}

const { port, answer, claim } = workerAnswerer();
const data = workerData as TickThreadData;
let thread: TickThread | undefined;
try {
  // The slow part of the start needs no connection: a store closed meanwhile (a short capture, a
  // test) gives the thread up without waiting for it (answering-worker.ts `claimsLate`).
  primeDeriving();
  if (claim()) {
    thread = new TickThread(openSqlite(data.file, { timeout: data.busyMs }));
    answer({ id: 0, ready: true } satisfies ThreadAnswer);
  } else {
    port.close();
  }
} catch (err) {
  answer({ id: 0, error: failure(err) } satisfies ThreadAnswer);
}

port.on('message', (m: ThreadRequest) => {
  if (m.type === 'stop') {
    thread?.stop();
    answer({ id: -1 });
    port.close();
    return;
  }
  if (!thread) return;
  if (m.type === 'adopt') {
    try {
      thread.adopt();
    } catch {
      // Without a deriver, each tick says so (a noted error) and stores its frames underived.
    }
    return;
  }
  answer(m.type === 'tick' ? thread.tick(m) : m.type === 'write' ? thread.write(m.id, m.ops) : thread.snapshot(m.id));
});
