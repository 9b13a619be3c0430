/**
 * A paused capture's retry (pipeline-state.ts `paused`). The store refused a write for where it
 * lives (disk full, read-only) and the engine keeps that write as it was made; every RETRY_MS, and
 * once more when the capture closes, the engine writes it again. When the store takes it, capture
 * resumes (`idle`) and listeners hear the write; when the store refuses it again for the storage,
 * capture stays paused; refused for any other reason, it is given up and counted as not recorded,
 * and capture resumes with what comes next.
 *
 * One retry at a time: `retrying` is set while one is with the engine, and a retry starts only
 * while the engine takes writes (`ready`: a replaced worker may still be starting).
 */
import type { CaptureHealth } from './capture-health.js';
import { storageProblem } from './capture-health.js';
import type { EnginePort, TickOutcome, TickWork } from './engine-contract.js';
import { RETRY_MS } from './pipeline-limits.js';
import type { PipelineState } from './pipeline-state.js';

type Paused = Extract<PipelineState, { kind: 'paused' }>;

/** What the retry needs of the pipeline: its engine, its state, the one way to change it, and its listeners. */
export interface RetryHost {
  /** The engine now (a replaced worker's successor writes the refused write anew). */
  engine(): EnginePort;
  state(): PipelineState;
  enter(next: PipelineState): void;
  /** The refused write is stored: it is told to listeners as any write is. */
  written(outcome: Extract<TickOutcome, { ok: true }>, refused: TickWork): void;
}

export class RefusedWriteRetry {
  /** Set exactly while the pipeline is paused (`arm` to `disarm`). */
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly health: CaptureHealth,
    private readonly host: RetryHost,
  ) {}

  /** The pipeline entered `paused`: retries every RETRY_MS until `disarm`. */
  arm(): void {
    this.timer = setInterval(() => this.now(), RETRY_MS);
    this.timer.unref();
  }

  /** The pipeline left `paused`. */
  disarm(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Has the engine write the refused write again, unless a retry is under way or the engine is not up. */
  now(): void {
    const paused = this.host.state();
    const engine = this.host.engine();
    if (paused.kind !== 'paused' || paused.retrying || !engine.ready) return;
    this.host.enter({ ...paused, retrying: true });
    engine.retry(paused.refused, (outcome) => this.retried(paused, outcome));
  }

  private retried(paused: Paused, outcome: TickOutcome): void {
    const { refused } = paused;
    if (outcome.ok) {
      this.host.enter({ kind: 'idle' });
      this.host.written(outcome, refused);
    } else if (storageProblem(outcome.failure) === undefined) {
      // The store answers again but not for this write: give it up, resume with what comes next.
      this.health.noteError(outcome.failure);
      this.health.notRecorded(refused.frames.length, refused.requests.length);
      this.host.enter({ kind: 'idle' });
    } else {
      this.host.enter({ ...paused, retrying: false });
    }
  }
}
