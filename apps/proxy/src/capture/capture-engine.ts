/**
 * The capture engine: one tick at a time, synchronously, over one connection to the store. A tick
 * is derived (the capture's one deriver), encoded (tick-ops.ts), written in one transaction, and
 * every SNAPSHOT_EVERY frames followed by the deriver's snapshot. The same class runs in process
 * and on the engine's worker (engine-contract.ts); the store it writes through knows neither
 * threads nor the deriver. Deriving itself is below the class: per tick, page by page from the
 * store (warm-up and rebuild), and the snapshot.
 *
 * Invariants:
 * - The deriver has seen every frame through `derivedThrough`, and nothing after it: it is warmed
 *   from the store when the engine starts (the snapshot, then the frames after it), as opening a
 *   capture does, and each tick's frames are derived once.
 * - Frames are evidence: a deriver that throws, or derived rows the store refuses for anything
 *   but the storage, leave the tick's frames and door records written underived (noted).
 * - A write the storage refuses (disk full, read-only) is kept here as it was encoded, never
 *   derived again; `retry()` writes it. While one is kept, no snapshot is taken (it would cover
 *   frames not stored).
 *
 * Warm start: the deriver's snapshot is stored every SNAPSHOT_EVERY frames and on close, so
 * opening a capture restores the deriver and replays only the frames after the snapshot, instead
 * of every stored frame (about 20 s for a million frames). A snapshot is used only when it is of
 * this deriver's version, covers no frame the store lacks, and leaves no stored frame after it
 * unreplayed; anything else (no snapshot, an older format, a parse or restore failure, retention
 * having removed frames the snapshot did not cover) replays every stored frame. After kill -9 the
 * last periodic snapshot is still valid: it is older, so more frames replay.
 */
import { DERIVER_STATE_VERSION, classifyText, rawLength, type CaptureDeriver, type ConversationSummary, type Derived, type Diagnostic, type ExchangeSummary, type Frame, type Message, type SessionSummary } from '@mcpscope/protocol';
import type { CaptureReader } from './capture-reader.js';
import type { ReplayLinks } from './replay-links.js';
import type { SqliteStatement } from './sqlite.js';
import { TICK_SQL, TickOps, applyTickOps, type TickTexts } from './tick-ops.js';
import { createDeriver, restoreDeriver } from './deriver.js';
import { SKELETON_FROM_CHARS, frameSkeleton } from './frame-skeleton.js';
import { TemplateWriter } from './templates.js';
import { storageProblem } from './capture-health.js';
import { engineFailure, type EngineFailure, type TickOutcome } from './engine-contract.js';

/** A tick as the engine takes it; the texts, when given, are stored as they are. */
export interface EngineTick {
  frames: readonly Frame[];
  /** The tick's door records as their rows (tick-ops.ts `doorRows`). */
  doorRows: readonly unknown[];
  largeMessages?: WeakMap<Frame, Message>;
  /** `frames[i].http` as JSON text (worker-engine.ts `readFrames`): stored as it is when its template is refused (templates.ts). */
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
  /** The replay links, which annotate each summary the engine writes. */
  private readonly links: ReplayLinks;
  private deriver: CaptureDeriver;
  private derivedThrough: number;
  private sinceSnapshot: number;
  /** The write the storage refused, kept for `retry()`. */
  private refusedWrite: Encoded | undefined;
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
    this.links = reader.replayLinks;
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

  /** Writes the refused write again; on a failure other than the storage's, gives it up. */
  retry(): TickOutcome {
    const refused = this.refusedWrite;
    if (!refused) return { ok: false, failure: new Error('capture engine: no refused write is kept') };
    try {
      this.transaction(refused.ops);
    } catch (err) {
      if (storageProblem(err) === undefined) {
        this.refusedWrite = undefined;
        this.clean = false;
      }
      return { ok: false, failure: err as Error, ...(this.refusedWrite ? { keptForRetry: true as const } : {}) };
    }
    this.refusedWrite = undefined;
    return { ok: true, texts: refused.texts };
  }

  /** Stores the deriver's snapshot as of the last frame derived, unless a refused write is kept or one was given up. */
  snapshot(): void {
    if (this.refusedWrite || !this.clean || this.derivedThrough === 0) return;
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
    ops.derived(derived, tick.frames[0]?.seq ?? 0, (ex) => this.links.annotate(ex));
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
      this.refusedWrite = write;
      return { ok: false, failure, keptForRetry: true, ...(noted.length > 0 ? { noted } : {}) };
    }
    this.clean = false;
    return { ok: false, failure, ...(noted.length > 0 ? { noted } : {}) };
  }
}

// Deriving: feeding frames through a deriver, per tick (the engine) and page by page from the
// store (warm-up and rebuild). Not the user's edit-and-replay (replay/).

/** Frames read per page when re-deriving from the store (warm-up and rebuild). */
export const REDERIVE_PAGE = 5000;

/** What a batch of frames changed: rows merged (last state wins), and the conversations they touched. */
export type DerivedBatch = Derived & { conversations: ConversationSummary[] };

/** A batch that derived nothing (a tick written underived). */
export const NOTHING_DERIVED: DerivedBatch = { exchanges: [], sessions: [], diagnostics: [], conversations: [] };

/** Whether a batch derived any row (else a refused write has nothing to leave out). */
export function hasRows(derived: DerivedBatch): boolean {
  return derived.exchanges.length + derived.sessions.length + derived.diagnostics.length + derived.conversations.length > 0;
}

/**
 * Runs frames through the deriver, merging what changed (last state of each row wins). `messages`
 * has what large frames stored by the writer thread read as (from their skeletons).
 */
export function derive(deriver: CaptureDeriver, frames: readonly Frame[], messages?: WeakMap<Frame, Message>): DerivedBatch {
  const exchanges = new Map<string, ExchangeSummary>();
  const sessions = new Map<string, SessionSummary>();
  const diagnostics: Diagnostic[] = [];
  for (const frame of frames) {
    // A cut body is not the message that was sent: reported as such, never read as one.
    const cut = frame.http?.cut;
    const derived = cut ? deriver.ingest(frame, cutMessage(frame, cut.size)) : deriver.ingest(frame, messages?.get(frame) ?? largeFrameMessage(frame));
    for (const ex of derived.exchanges) exchanges.set(ex.id, ex);
    for (const s of derived.sessions) sessions.set(s.sessionKey, s);
    for (const d of derived.diagnostics) diagnostics.push(d);
  }
  return { exchanges: [...exchanges.values()], sessions: [...sessions.values()], diagnostics, conversations: deriver.takeConversations() };
}

/** What a cut frame reads as (counted only for those: a byte count walks the whole text). */
function cutMessage(frame: Frame, size: number): Message {
  const sse = frame.transport === 'sse';
  const kept = sse ? frame.raw.length : Buffer.byteLength(frame.raw);
  return { kind: 'invalid', reason: `too large to keep whole: the first ${kept} of ${size} ${sse ? 'characters' : 'bytes'} were kept` };
}

/** Feeds every stored frame after `from` (through `until`), in seq order and page by page, through `deriver`. */
export function rederiveInto(
  store: CaptureReader,
  deriver: CaptureDeriver,
  onPage: (frames: Frame[], derived: DerivedBatch) => void,
  from = 0,
  until = Number.MAX_SAFE_INTEGER,
): number {
  let after = from;
  let total = 0;
  for (;;) {
    let frames = store.rawFramesAfter(after, REDERIVE_PAGE);
    if (frames.length > 0 && frames[frames.length - 1]!.seq > until) frames = frames.filter((f) => f.seq <= until);
    if (frames.length === 0) return total;
    onPage(frames, derive(deriver, frames));
    after = frames[frames.length - 1]!.seq;
    total += frames.length;
  }
}

/**
 * A large frame's message, read from its skeleton (frame-skeleton.ts); undefined for the others
 * (the deriver parses them). A skeleton that does not read as JSON-RPC says nothing the whole body
 * would not: the body is parsed whole then, so the reason given is the body's own.
 */
function largeFrameMessage(frame: Frame): Message | undefined {
  if (frame.kind !== 'data' || rawLength(frame) < SKELETON_FROM_CHARS) return undefined;
  const skeleton = frameSkeleton(frame.raw);
  if (skeleton === undefined) return undefined;
  const message = classifyText(skeleton);
  return message.kind === 'invalid' ? undefined : message;
}


/** Frames between periodic snapshots: what a restart after kill -9 replays at most. */
export const SNAPSHOT_EVERY = 50_000;

/**
 * A deriver that has seen every stored frame; `replayed` is how many frames that took, `through`
 * the last frame it has seen (frames committed meanwhile by another connection come after it).
 * With `until`, frames after that seq are left unseen.
 */
export function warmDeriver(store: CaptureReader, until = Number.MAX_SAFE_INTEGER): { deriver: CaptureDeriver; replayed: number; through: number; restoredAt?: number } {
  const restored = restore(store, until);
  const deriver = restored?.deriver ?? createDeriver();
  let through = restored?.seq ?? 0;
  const replayed = rederiveInto(store, deriver, (frames) => (through = frames[frames.length - 1]!.seq), through, until);
  return { deriver, replayed, through, ...(restored ? { restoredAt: restored.seq } : {}) };
}

/** Stores `deriver`'s state as of frame `seq`, on the connection `store` reads through (the store's, or the engine worker's). */
export function saveSnapshot(store: CaptureReader, deriver: CaptureDeriver, seq: number): void {
  store.db
    .prepare('INSERT INTO deriver_snapshot (id, seq, version, state) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, version = excluded.version, state = excluded.state')
    .run(seq, DERIVER_STATE_VERSION, JSON.stringify(deriver.snapshot()));
}

function restore(store: CaptureReader, until: number): { deriver: CaptureDeriver; seq: number } | undefined {
  const row = store.deriverSnapshot();
  if (!row || row.version !== DERIVER_STATE_VERSION || row.seq > store.head() || row.seq > until) return undefined;
  // Frames after the snapshot that retention has already removed were never derived into it.
  const oldest = store.oldest();
  if (oldest !== 0 && oldest > row.seq + 1) return undefined;
  try {
    return { deriver: restoreDeriver(JSON.parse(row.state)), seq: row.seq };
  } catch {
    return undefined; // unreadable: replay instead
  }
}
