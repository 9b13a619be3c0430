/**
 * Keeps a capture file's engine on a worker thread (worker-engine.ts) for the capture's life. When
 * the worker dies (out of memory, a native crash, ended), a new worker of the same kind replaces
 * it, warmed from the store as a capture file's first worker is, and the write the dead one had
 * (`LostWrite`: a tick, or a paused capture's retry) is written by the new one, its outcome going
 * where the lost one's would have: nothing is lost, nothing is written twice. The store says
 * whether the dead worker had committed that write; if it had, the new worker is warmed through
 * the seq before it and derives it for its texts only, so listeners still hear it once, whole.
 * A refused write the dead worker kept while nothing was in flight is written anew by the next
 * retry (engine-contract.ts `retry`).
 *
 * The supervisor is not on a tick's way: the pipeline calls the engine it was handed (`use`), and
 * hears of a death only as the lost write's outcome, later; ticks wait (`ready`) while a new worker
 * starts, as they wait for the first.
 *
 * A worker that dies within QUICK_DEATH_MS of its start ENGINE_RESTART_LIMIT times in a row (one
 * that cannot open the file, or crashes on what it is given) is not started again: the engine
 * goes on in process (in-process-engine.ts), on the tap's thread, and capture's health says so
 * (`engineWorker` in GET /api/capture).
 */
import type { CaptureStore } from './capture-store.js';
import type { CaptureHealth } from './capture-health.js';
import type { EnginePort } from './engine-contract.js';
import { InProcessEngine } from './in-process-engine.js';
import { WorkerEngine, type LostWrite } from './worker-engine.js';

/** Deaths in a row, each soon after the worker's start, after which the engine runs in process. */
export const ENGINE_RESTART_LIMIT = 3;
/** A worker that dies within this long of its start counts towards ENGINE_RESTART_LIMIT. */
export const QUICK_DEATH_MS = 30_000;

export class EngineSupervisor {
  private engine!: EnginePort;
  private startedAt = 0;
  /** Deaths in a row, each within QUICK_DEATH_MS of its worker's start. */
  private quickDeaths = 0;
  /** The write a dead engine had, for its replacement once that is up (`committed`: already stored). */
  private redo: (LostWrite & { committed: boolean }) | undefined;

  /**
   * `use` is handed each replacement as it is made; `onReady` hears each time an engine takes
   * ticks (the first, then each replacement after it was given the write its predecessor lost).
   */
  constructor(
    private readonly store: CaptureStore,
    private readonly health: CaptureHealth,
    private readonly use: (engine: EnginePort) => void,
    private readonly onReady: () => void,
  ) {}

  /** Starts the first worker. */
  start(): EnginePort {
    this.engine = this.startWorker();
    return this.engine;
  }

  private startWorker(through?: number): EnginePort {
    this.startedAt = Date.now();
    return new WorkerEngine(this.store.file, this.store.replayLinks, () => this.engineUp(), (error, lost) => this.died(error, lost), through);
  }

  private replaceWith(engine: EnginePort): void {
    this.engine = engine;
    this.use(engine);
  }

  /** An engine takes ticks: first the write its predecessor lost, then what the pipeline sends. */
  private engineUp(): void {
    const redo = this.redo;
    this.redo = undefined;
    if (redo?.committed) this.engine.tickCommitted(redo.work, redo.done);
    else if (redo) this.engine.tick(redo.work, redo.done);
    this.onReady();
  }

  /**
   * The worker died or could not start. The write it had goes to a new worker, warmed through the
   * seq before that write's first frame, or to an engine in process once workers keep dying soon
   * after their start.
   */
  private died(error: Error, lost: LostWrite | undefined): void {
    this.quickDeaths = Date.now() - this.startedAt < QUICK_DEATH_MS ? this.quickDeaths + 1 : 1;
    // A replacement that died while starting passes on the write it was to redo.
    if (lost) {
      const first = lost.work.frames[0]?.seq;
      this.redo = { ...lost, committed: first !== undefined && this.store.hasFrame(first) };
    }
    const first = this.redo?.work.frames[0]?.seq;
    const through = first === undefined ? undefined : first - 1;
    if (this.quickDeaths < ENGINE_RESTART_LIMIT) {
      this.health.engineWorkerReplaced(error);
      this.replaceWith(this.startWorker(through));
      return;
    }
    this.health.engineInProcess(error);
    this.replaceWith(new InProcessEngine(this.store, through));
    this.engineUp();
  }
}
