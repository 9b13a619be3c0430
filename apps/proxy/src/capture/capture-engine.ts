/**
 * The capture engine: one tick at a time, synchronously, over one connection to the store. A tick
 * is derived (the capture's one deriver), encoded (tick-ops.ts), written in one transaction, and
 * every SNAPSHOT_EVERY frames followed by the deriver's snapshot (deriver-snapshot.ts). The same
 * class runs in process and on the engine's worker (engine-contract.ts); the store it writes
 * through knows neither threads nor the deriver.
 *
 * Invariants:
 * - The deriver has seen every frame through `derivedThrough`, and nothing after it: it is warmed
 *   from the store when the engine starts (the snapshot, then the frames after it), as opening a
 *   capture does, and each tick's frames are derived once.
 * - Frames are evidence: a deriver that throws, or derived rows the store refuses for anything
 *   but the storage, leave the tick's frames and door records written underived (noted).
 * - A write the storage refuses (disk full, read-only) is held here as it was encoded, never
 *   derived again; `retry()` writes it. While one is held, no snapshot is taken (it would cover
 *   frames not stored).
 */
import type { CaptureDeriver, Frame, Message } from '@mcpscope/protocol';
import type { CaptureReader } from './capture-reader.js';
import type { SqliteStatement } from './sqlite.js';
import { TICK_SQL, TickOps, applyTickOps, type TickTexts } from './tick-ops.js';
import { TemplateWriter } from './templates.js';
import { SNAPSHOT_EVERY, saveSnapshot, warmDeriver } from './deriver-snapshot.js';
import { NOTHING_DERIVED, derive, hasRows, type DerivedBatch } from './rederive.js';
import { storageProblem } from './capture-health.js';
import { engineFailure, type EngineFailure, type TickOutcome } from './engine-contract.js';

/** A tick as the engine takes it; the texts, when given, are stored as they are. */
export interface EngineTick {
  frames: readonly Frame[];
  /** The tick's door records as their rows (tick-ops.ts `doorRows`). */
  doorRows: readonly unknown[];
  largeMessages?: WeakMap<Frame, Message>;
  /** `frames[i].http` as JSON text (tick-wire.ts): stored as it is when its template is refused (templates.ts). */
  httpJson?: readonly (string | null)[];
}

interface Encoded {
  ops: unknown[];
  texts: TickTexts;
}

export class CaptureEngine {
  private readonly statements: SqliteStatement[];
  private readonly transaction: (ops: unknown[]) => void;
  private readonly templates: TemplateWriter;
  private deriver: CaptureDeriver;
  private derivedThrough: number;
  private sinceSnapshot: number;
  private held: Encoded | undefined;
  /** False once a write was given up: a snapshot then could cover frames that were never stored. */
  private clean = true;

  /**
   * Warms the deriver from `reader`'s connection. With `through`, only frames up to that seq (the
   * frames after it are a tick the caller derives next, already committed or not).
   */
  constructor(
    private readonly reader: CaptureReader,
    through = Number.MAX_SAFE_INTEGER,
  ) {
    this.statements = TICK_SQL.map((sql) => (sql === '' ? undefined! : reader.db.prepare(sql)));
    this.transaction = reader.db.transaction((ops: unknown[]) => applyTickOps(this.statements, ops));
    this.templates = new TemplateWriter(reader.db);
    const warm = warmDeriver(reader, through);
    this.deriver = warm.deriver;
    this.derivedThrough = warm.through;
    this.sinceSnapshot = warm.replayed;
  }

  /**
   * Derives, encodes and writes one tick. With `committed`, the tick's write is already in the
   * store (a worker died after its commit): it is derived and encoded for its texts, not written.
   */
  tick(tick: EngineTick, committed = false): TickOutcome {
    const noted: EngineFailure[] = [];
    const derived = this.derive(tick, noted);
    const full = this.encode(tick, derived);
    if (committed) return this.committed(tick, full, derived, noted);
    try {
      this.transaction(full.ops);
    } catch (err) {
      if (storageProblem(err) !== undefined || !hasRows(derived)) return this.refused(err, full, noted);
      noted.push(engineFailure(err));
      const bare = this.encode(tick, NOTHING_DERIVED);
      try {
        this.transaction(bare.ops);
      } catch (again) {
        return this.refused(again, bare, noted);
      }
      return this.committed(tick, bare, NOTHING_DERIVED, noted);
    }
    return this.committed(tick, full, derived, noted);
  }

  /** Writes the held write again; on a failure other than the storage's, gives it up. */
  retry(): TickOutcome {
    const held = this.held;
    if (!held) return { ok: false, failure: new Error('capture engine: no write is held') };
    try {
      this.transaction(held.ops);
    } catch (err) {
      if (storageProblem(err) === undefined) {
        this.held = undefined;
        this.clean = false;
      }
      return { ok: false, failure: err as Error, ...(this.held ? { held: true as const } : {}) };
    }
    this.held = undefined;
    return { ok: true, texts: held.texts };
  }

  /** Stores the deriver's snapshot as of the last frame derived, unless a write is held or was given up. */
  snapshot(): void {
    if (this.held || !this.clean || this.derivedThrough === 0) return;
    saveSnapshot(this.reader, this.deriver, this.derivedThrough);
    this.sinceSnapshot = 0;
  }

  private derive(tick: EngineTick, noted: EngineFailure[]): DerivedBatch {
    const frames = tick.frames;
    if (frames.length === 0) return NOTHING_DERIVED;
    this.derivedThrough = frames[frames.length - 1]!.seq;
    try {
      return derive(this.deriver, frames, tick.largeMessages);
    } catch (err) {
      noted.push(engineFailure(err));
      return NOTHING_DERIVED;
    }
  }

  private encode(tick: EngineTick, derived: DerivedBatch): Encoded {
    const ops = new TickOps(this.templates);
    ops.frames(tick.frames, tick.httpJson);
    ops.doorRows(tick.doorRows);
    ops.derived(derived, tick.frames[0]?.seq ?? 0, (ex) => this.reader.replayLinks.annotate(ex));
    return { ops: ops.ops, texts: ops.texts };
  }

  private committed(tick: EngineTick, write: Encoded, derived: DerivedBatch, noted: EngineFailure[]): TickOutcome {
    this.sinceSnapshot += tick.frames.length;
    if (this.sinceSnapshot >= SNAPSHOT_EVERY) {
      try {
        this.snapshot();
      } catch (err) {
        noted.push(engineFailure(err));
      }
    }
    return { ok: true, texts: write.texts, derived, ...(noted.length > 0 ? { noted } : {}) };
  }

  private refused(err: unknown, write: Encoded, noted: EngineFailure[]): TickOutcome {
    const failure = err instanceof Error ? err : new Error(String(err));
    if (storageProblem(err) !== undefined) {
      this.held = write;
      return { ok: false, failure, held: true, ...(noted.length > 0 ? { noted } : {}) };
    }
    this.clean = false;
    return { ok: false, failure, ...(noted.length > 0 ? { noted } : {}) };
  }
}
