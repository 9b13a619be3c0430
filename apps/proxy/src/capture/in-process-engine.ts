/**
 * The engine's port in process: the engine runs on the caller's thread, over the store's own
 * connection, and `done` runs before each call returns. For `:memory:` (a worker cannot share
 * it), `mcpscope open`, tests, and a capture whose workers kept dying (engine-supervisor.ts).
 */
import type { CaptureStore } from './capture-store.js';
import { CaptureEngine, type EngineTick } from './capture-engine.js';
import type { EnginePort, TickDone, TickOutcome, TickWork } from './engine-contract.js';
import { doorRows } from './tick-ops.js';

export class InProcessEngine implements EnginePort {
  readonly ready = true;
  readonly threadId = undefined;
  private readonly engine: CaptureEngine;
  /** Whether the engine keeps a write the storage refused (its last write's outcome said so). */
  private keepsRefused = false;

  /** Warms the engine from the store (through `through` only: see CaptureEngine). */
  constructor(store: CaptureStore, through?: number) {
    this.engine = new CaptureEngine(store, through);
  }

  tick(work: TickWork, done: TickDone): void {
    done(this.kept(this.engine.tick(engineTick(work))));
  }

  tickCommitted(work: TickWork, done: TickDone): void {
    done(this.engine.tick(engineTick(work), true));
  }

  retry(work: TickWork, done: TickDone): void {
    done(this.kept(this.keepsRefused ? this.engine.retry() : this.engine.tick(engineTick(work))));
  }

  private kept(outcome: TickOutcome): TickOutcome {
    this.keepsRefused = !outcome.ok && outcome.keptForRetry === true;
    return outcome;
  }

  settle(): void {}

  close(snapshot: boolean): void {
    if (snapshot) this.engine.snapshot();
  }
}

function engineTick(work: TickWork): EngineTick {
  return { frames: work.frames, doorRows: doorRows(work.requests), largeMessages: work.largeMessages };
}
