/**
 * Frames a `pause` rule holds: each waits for the user to release it (as it was or edited) or to
 * drop it, and goes on unchanged by itself at its deadline, so a forgotten breakpoint never makes
 * the client's call time out.
 */
import type { HeldFrame } from '../core/intercept-port.js';

export interface HeldView extends HeldFrame {
  id: number;
  ruleId: string;
  ruleText: string;
  since: number;
  /** When it goes on by itself (ms since the epoch). */
  deadline: number;
}

/** How a held frame went on: released (as it was or edited), dropped, or at its deadline. */
export type HeldEnd = 'released' | 'edited' | 'dropped' | 'deadline';

interface Entry {
  view: HeldView;
  resolve(text: string | null): void;
  ended(how: HeldEnd): void;
  timer: ReturnType<typeof setTimeout>;
}

export class HeldFrames {
  private readonly held = new Map<number, Entry>();
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  list(): HeldView[] {
    return [...this.held.values()].map((e) => e.view);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  hold(frame: HeldFrame, rule: { id: string; text: string }, deadlineMs: number, ended: (how: HeldEnd) => void): Promise<string | null> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      const since = this.now();
      const timer = setTimeout(() => this.finish(id, frame.raw, 'deadline'), deadlineMs);
      timer.unref?.();
      this.held.set(id, {
        view: { ...frame, id, ruleId: rule.id, ruleText: rule.text, since, deadline: since + deadlineMs },
        resolve,
        ended,
        timer,
      });
      this.changed();
    });
  }

  /** Sends a held frame on, with `text` in place of its own when given; false if it is no longer held. */
  release(id: number, text?: string): boolean {
    const entry = this.held.get(id);
    if (!entry) return false;
    const edited = text !== undefined && text !== entry.view.raw;
    return this.finish(id, edited ? text : entry.view.raw, edited ? 'edited' : 'released');
  }

  drop(id: number): boolean {
    return this.finish(id, null, 'dropped');
  }

  /** Lets every held frame go on unchanged (the proxy is closing). */
  releaseAll(): void {
    for (const id of [...this.held.keys()]) this.finish(id, this.held.get(id)!.view.raw, 'released');
  }

  private finish(id: number, text: string | null, how: HeldEnd): boolean {
    const entry = this.held.get(id);
    if (!entry) return false;
    clearTimeout(entry.timer);
    this.held.delete(id);
    entry.ended(how);
    entry.resolve(text);
    this.changed();
    return true;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
