/**
 * Whether capture is storing, as `GET /api/capture` and the dashboard's banner tell it. A write
 * the store refuses because of where it lives (a full disk, a file system gone read-only, an I/O
 * error) pauses capture: the tap keeps forwarding, what it forwards meanwhile is counted as not
 * recorded, and the refused write is retried until the store takes it again. Any other failure (a
 * frame the deriver or the store could not take) is noted and capture goes on.
 */
import type { CaptureStatus } from '@mcpscope/protocol';

/** SQLite's primary result codes for "the storage cannot take this write now" (sqlite.org/rescode.html). */
const STORAGE_CODES: Record<number, string> = {
  5: 'the capture file is busy (another process holds it)',
  8: 'the capture file is read-only',
  10: 'the disk could not be written (I/O error)',
  13: 'disk full',
  14: 'the capture file cannot be opened',
};
const STORAGE_NAMES: Record<string, number> = { SQLITE_BUSY: 5, SQLITE_READONLY: 8, SQLITE_IOERR: 10, SQLITE_FULL: 13, SQLITE_CANTOPEN: 14 };

/**
 * The reason to show when `err` says the storage cannot take writes (either SQLite driver, or the
 * file system itself), undefined for any other failure.
 */
export function storageProblem(err: unknown): string | undefined {
  const e = err as { code?: unknown; errcode?: unknown };
  if (typeof e?.errcode === 'number') return STORAGE_CODES[e.errcode & 0xff];
  if (typeof e?.code !== 'string') return undefined;
  if (e.code === 'ENOSPC') return STORAGE_CODES[13];
  if (e.code === 'EROFS') return STORAGE_CODES[8];
  // better-sqlite3 names extended codes too: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED.
  const primary = Object.keys(STORAGE_NAMES).find((name) => e.code === name || (e.code as string).startsWith(`${name}_`));
  return primary ? STORAGE_CODES[STORAGE_NAMES[primary]!] : undefined;
}

/** The capture's health, kept by the pipeline. */
export class CaptureHealth {
  private pausedFor: { reason: string; since: number } | undefined;
  /** Set while the user paused capture from the dashboard (independent of a storage pause). */
  private userPause: { since: number; lostBefore: number } | undefined;
  private lost = { frames: 0, requests: 0 };
  private behind: { frames: number; at: number } | undefined;
  private lastError: { message: string; at: number } | undefined;
  private engineWorker: { restarts: number; inProcessSince?: number } | undefined;
  /** Messages already printed, so a failure that repeats every tick is printed once. */
  private readonly told = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {}

  /** Calls `listener` after each change of what `status()` says (the live hub pushes it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  get paused(): boolean {
    return this.pausedFor !== undefined;
  }

  pause(reason: string, err: unknown): void {
    const first = !this.pausedFor;
    this.pausedFor ??= { reason, since: Date.now() };
    this.noteError(err);
    this.changed();
    if (first) this.log(`mcpscope: capture paused: ${reason}. Traffic still flows through the tap; capture resumes when the capture file takes writes again.`);
  }

  resume(): void {
    if (!this.pausedFor) return;
    this.log(`mcpscope: capture resumed (${this.lost.frames} frames and ${this.lost.requests} requests were not recorded meanwhile).`);
    this.pausedFor = undefined;
    this.changed();
  }

  /** Whether frames handed to the pipeline are stored now (neither pause is on). */
  get storing(): boolean {
    return !this.pausedFor && !this.userPause;
  }

  get pausedByUser(): boolean {
    return this.userPause !== undefined;
  }

  /** The user paused capture: frames from now on are counted, not stored. False when it already was. */
  pauseByUser(): boolean {
    if (this.userPause) return false;
    this.userPause = { since: Date.now(), lostBefore: this.lost.frames };
    this.changed();
    this.log('mcpscope: capture paused from the dashboard. Traffic still flows through the tap; what it forwards is not stored until capture resumes.');
    return true;
  }

  /** Ends the user's pause; returns the frames not stored during it (undefined when not paused). */
  resumeByUser(): number | undefined {
    if (!this.userPause) return undefined;
    const lost = this.lost.frames - this.userPause.lostBefore;
    this.userPause = undefined;
    this.changed();
    this.log(`mcpscope: capture resumed from the dashboard (${lost} frames forwarded during the pause were not stored).`);
    return lost;
  }

  notRecorded(frames: number, requests = 0): void {
    this.lost.frames += frames;
    this.lost.requests += requests;
    this.changed();
  }

  /** A frame forwarded but not stored because capture fell behind (the queue's bound behind a write: pipeline-limits.ts QUEUE_LIMITS). */
  fellBehind(): void {
    this.notRecorded(1);
    if (!this.behind) this.log('mcpscope: capture fell behind a large write; frames past its bound are forwarded but not stored (GET /api/capture counts them).');
    this.behind = { frames: (this.behind?.frames ?? 0) + 1, at: Date.now() };
  }

  noteError(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.lastError = { message, at: Date.now() };
    this.changed();
    if (this.told.has(message) || this.told.size >= 100) return;
    this.told.add(message);
    if (!this.pausedFor) this.log(`mcpscope: capture failed (${message}); the tap forwards as always.`);
  }

  /** The engine's worker died and a new one replaces it (engine-supervisor.ts). */
  engineWorkerReplaced(err: unknown): void {
    this.engineWorker = { restarts: (this.engineWorker?.restarts ?? 0) + 1 };
    this.noteError(err);
  }

  /** The engine's worker kept dying soon after its start: capture goes on on the tap's thread. */
  engineInProcess(err: unknown): void {
    this.engineWorker = { restarts: this.engineWorker?.restarts ?? 0, inProcessSince: Date.now() };
    this.noteError(err);
    this.changed();
    this.log("mcpscope: the capture engine's worker thread kept dying; capture goes on on the tap's thread (slower under load, nothing is lost).");
  }

  status(): CaptureStatus {
    return {
      state: this.storing ? 'recording' : 'paused',
      ...(this.pausedFor ? { reason: this.pausedFor.reason, since: this.pausedFor.since } : {}),
      ...(this.userPause ? { pausedByUser: { since: this.userPause.since } } : {}),
      notRecorded: { ...this.lost },
      ...(this.behind ? { fellBehind: { ...this.behind } } : {}),
      ...(this.lastError ? { lastError: { ...this.lastError } } : {}),
      ...(this.engineWorker ? { engineWorker: { ...this.engineWorker } } : {}),
    };
  }
}
