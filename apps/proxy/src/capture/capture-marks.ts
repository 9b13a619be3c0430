/**
 * The capture's marks, as the user makes them: a pause from the dashboard (what is queued is
 * stored first; frames forwarded from then on are counted, not stored: capture-health.ts), its
 * resume (saying how many frames were not stored), a labelled line, and the marks a file brings
 * along on import. Each sits after the newest frame stored when it was made (marks-table.ts).
 */
import type { CaptureMark } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';
import { storageProblem, type CaptureHealth } from './capture-health.js';
import type { MarksTable } from './marks-table.js';

/** What the marks need of the pipeline: to store what is queued, and the newest seq. */
export interface MarkedCapture {
  flush(everything: boolean): void;
  readonly head: number;
  readonly health: CaptureHealth;
}

export class CaptureMarks {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly table: MarksTable,
    private readonly capture: MarkedCapture,
  ) {}

  /** Calls `listener` after each mark stored (the live hub pushes the marks). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Pauses capture with a `pause` mark where it stopped; undefined when the user had already paused it. */
  pauseByUser(): CaptureMark | undefined {
    this.capture.flush(true);
    if (!this.capture.health.pauseByUser()) return undefined;
    return this.mark('pause', 'capture paused from the dashboard: frames forwarded from here on are not stored');
  }

  /** Ends the user's pause with a `resume` mark that says how many frames were not stored. */
  resumeByUser(): CaptureMark | undefined {
    const lost = this.capture.health.resumeByUser();
    if (lost === undefined) return undefined;
    return this.mark('resume', `capture resumed: ${lost} frame${lost === 1 ? '' : 's'} forwarded during the pause ${lost === 1 ? 'was' : 'were'} not stored`);
  }

  /** A labelled line in the timeline, after everything stored so far. */
  add(label: string): CaptureMark {
    this.capture.flush(true);
    return this.mark('mark', label);
  }

  /**
   * Marks read from a file, each placed after the newest imported frame that came at or before it
   * there (`seqOf`: the file's seq → the new one, in file order), or after `before` when none did.
   */
  importAll(marks: readonly CaptureMark[], seqOf: ReadonlyMap<number, number>, before: number): void {
    if (marks.length === 0) return;
    this.capture.flush(true);
    for (const m of marks) {
      let afterSeq = before;
      for (const [original, seq] of seqOf) if (original <= m.afterSeq && seq > afterSeq) afterSeq = seq;
      this.mark(m.kind, m.label, m.ts, afterSeq);
    }
  }

  private mark(kind: CaptureMark['kind'], label: string, ts = Date.now(), afterSeq = this.capture.head): CaptureMark {
    let stored: CaptureMark;
    try {
      stored = this.table.add({ ts, afterSeq, kind, label });
    } catch (err) {
      const problem = storageProblem(err);
      if (problem !== undefined) throw new InspectorError('capture_paused', `The mark could not be stored: ${problem}.`);
      throw err;
    }
    for (const listener of this.listeners) listener();
    return stored;
  }
}
