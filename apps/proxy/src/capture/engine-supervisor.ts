/**
 * A capture file's engine, kept on a worker thread (worker-engine.ts) for the capture's life. When
 * the worker dies (out of memory, a native crash, ended), a new worker of the same kind replaces
 * it, warmed from the store as a capture file's first worker is, and the write the dead one had
 * is written by the new one: nothing is lost, nothing is written twice. The store says whether the
 * dead worker had committed that write; if it had, the new worker is warmed through the seq before
 * it and derives it for its texts only (listeners still hear it once, whole). A refused write the
 * dead worker kept for its retry (a paused capture) is written anew by the next `retry`.
 *
 * The pipeline sees one port and never a death: the write's outcome comes from whichever worker
 * wrote it, and ticks wait (`ready`) while a new worker starts, as they wait for the first.
 *
 * A worker that dies within QUICK_DEATH_MS of its start ENGINE_RESTART_LIMIT times in a row (one
 * that cannot open the file, or crashes on what it is given) is not started again: the engine
 * goes on in process (in-process-engine.ts), on the tap's thread, and capture's health says so
 * (`engineWorker` in GET /api/capture).
 */
import type { CaptureStore } from './capture-store.js';
import type { CaptureHealth } from './capture-health.js';
import type { EnginePort, TickDone, TickOutcome, TickWork } from './engine-contract.js';
import { InProcessEngine } from './in-process-engine.js';
import { WorkerEngine } from './worker-engine.js';

/** Deaths in a row, each soon after the worker's start, after which the engine runs in process. */
export const ENGINE_RESTART_LIMIT = 3;
/** A worker that dies within this long of its start counts towards ENGINE_RESTART_LIMIT. */
export const QUICK_DEATH_MS = 30_000;

/** A write with the engine, and who hears its outcome. */
interface Write {
  work: TickWork;
  done: TickDone;
}

export class EngineSupervisor implements EnginePort {
  private engine: EnginePort;
  private startedAt = Date.now();
  /** Deaths in a row, each within QUICK_DEATH_MS of its worker's start. */
  private quickDeaths = 0;
  /** The write with the engine now (a tick, or a retry of the refused write). */
  private inFlight: Write | undefined;
  /** The write a dead engine had, for its replacement once that is up (`committed`: already stored). */
  private redo: (Write & { committed: boolean }) | undefined;
  /** The write the storage refused; the engine keeps it for `retry` unless it died since (`keptByEngine`). */
  private refused: TickWork | undefined;
  private keptByEngine = false;

  /** Starts the first worker; `onReady` hears each time an engine (first or replacement) takes ticks. */
  constructor(
    private readonly store: CaptureStore,
    private readonly health: CaptureHealth,
    private readonly onReady: () => void,
  ) {
    this.engine = this.startWorker();
  }

  get ready(): boolean {
    return this.engine.ready && this.redo === undefined;
  }

  get threadId(): number | undefined {
    return this.engine.threadId;
  }

  tick(work: TickWork, done: TickDone): void {
    this.send({ work, done }, false);
  }

  tickCommitted(work: TickWork, done: TickDone): void {
    this.send({ work, done }, true);
  }

  retry(done: TickDone): void {
    const refused = this.refused;
    if (refused && !this.keptByEngine) return this.send({ work: refused, done }, false);
    this.inFlight = refused ? { work: refused, done } : undefined;
    this.engine.retry(this.outcome(refused, done));
  }

  settle(): void {
    this.engine.settle();
  }

  close(snapshot: boolean): void {
    this.engine.close(snapshot);
  }

  private send(write: Write, committed: boolean): void {
    this.inFlight = write;
    const done = this.outcome(write.work, write.done);
    if (committed) this.engine.tickCommitted(write.work, done);
    else this.engine.tick(write.work, done);
  }

  /** Hears a write's outcome; a `gone` outcome is left to `died`, which took the write over. */
  private outcome(work: TickWork | undefined, done: TickDone): TickDone {
    return (outcome: TickOutcome) => {
      if (!outcome.ok && outcome.gone) return;
      this.inFlight = undefined;
      this.refused = !outcome.ok && outcome.keptForRetry ? work : undefined;
      this.keptByEngine = this.refused !== undefined;
      done(outcome);
    };
  }

  private startWorker(through?: number): EnginePort {
    this.startedAt = Date.now();
    return new WorkerEngine(this.store.file, this.store.replayLinks, () => this.engineUp(), (error) => this.died(error), through);
  }

  /** An engine takes ticks: first the write its predecessor left, then what the pipeline sends. */
  private engineUp(): void {
    const redo = this.redo;
    this.redo = undefined;
    if (redo) this.send(redo, redo.committed);
    this.onReady();
  }

  /**
   * The worker died or could not start. What it had (a write in flight) goes to a new worker,
   * warmed through the seq before that write's first frame, or to an engine in process once
   * workers keep dying at once.
   */
  private died(error: Error): void {
    const lost = this.inFlight;
    this.inFlight = undefined;
    this.keptByEngine = false;
    this.quickDeaths = Date.now() - this.startedAt < QUICK_DEATH_MS ? this.quickDeaths + 1 : 1;
    // A replacement that died while starting passes on the write it was given to redo.
    if (lost) {
      const first = lost.work.frames[0]?.seq;
      this.redo = { ...lost, committed: first !== undefined && this.store.hasFrame(first) };
    }
    const first = this.redo?.work.frames[0]?.seq;
    const through = first === undefined ? undefined : first - 1;
    if (this.quickDeaths < ENGINE_RESTART_LIMIT) {
      this.health.engineWorkerReplaced(error);
      this.engine = this.startWorker(through);
      return;
    }
    this.health.engineInProcess(error);
    this.engine = new InProcessEngine(this.store, through);
    this.engineUp();
  }
}
