/**
 * The preview's event log: everything the widget did and everything the host did about it —
 * bridge messages, tool calls (linked to their exchange), refusals, state and model-context
 * updates, follow-up messages and links the preview cannot honour, console errors, uncaught
 * exceptions, blocked loads — newest last.
 *
 * A widget can produce thousands of these a second, so the log is bounded (the oldest entries go,
 * counted) and listeners hear about changes at most once per animation frame: the dashboard
 * renders the log, never each message.
 */

export type LogKind = 'host' | 'bridge' | 'call' | 'refused' | 'consent' | 'state' | 'context' | 'message' | 'link' | 'display' | 'log' | 'console' | 'error' | 'csp' | 'flood';

export interface LogEntry {
  seq: number;
  /** Milliseconds since the preview started. */
  t: number;
  kind: LogKind;
  severity: 'error' | 'warning' | 'info';
  text: string;
  /** The exchange this entry is about (a call the widget made), when there is one. */
  exchangeId?: string;
  detail?: unknown;
  /** A URL the widget asked to open (shown as a link the user may follow). */
  url?: string;
}

export const LOG_CAPACITY = 500;

export class EventLog {
  private entries: LogEntry[] = [];
  private seq = 0;
  private dropped = 0;
  private readonly t0 = performance.now();
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private snap: { entries: readonly LogEntry[]; dropped: number } = { entries: [], dropped: 0 };

  add(kind: LogKind, text: string, extra: Partial<Pick<LogEntry, 'severity' | 'exchangeId' | 'detail' | 'url'>> = {}): void {
    const severity = extra.severity ?? (kind === 'error' || kind === 'refused' ? 'error' : kind === 'csp' || kind === 'console' || kind === 'flood' ? 'warning' : 'info');
    this.entries.push({ seq: ++this.seq, t: Math.round(performance.now() - this.t0), kind, severity, text, ...extra });
    if (this.entries.length > LOG_CAPACITY * 2) {
      // Trim in batches: splicing one entry per message would be quadratic under a flood.
      const excess = this.entries.length - LOG_CAPACITY;
      this.entries = this.entries.slice(excess);
      this.dropped += excess;
    }
    this.schedule();
  }

  /** The latest entries (at most LOG_CAPACITY) and how many older ones were let go. */
  snapshot(): { entries: readonly LogEntry[]; dropped: number } {
    return this.snap;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const flush = () => {
      this.scheduled = false;
      const over = Math.max(0, this.entries.length - LOG_CAPACITY);
      this.snap = { entries: over ? this.entries.slice(over) : this.entries.slice(), dropped: this.dropped + over };
      for (const l of this.listeners) l();
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
    else setTimeout(flush, 16);
  }
}
