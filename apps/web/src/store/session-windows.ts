/**
 * The sessions of a capture with more of them than the browser holds (a host's churn: tens of
 * thousands). Up to SESSIONS_WHOLE sessions the live store holds every one (live-store.ts). Past
 * it the capture's sessions are `windowed`, and stay so: the live store holds the newest
 * SESSIONS_HELD, those arriving live, the pinned ones (the chosen session, those the door's records
 * name) and those read by key (one a row on screen or the filter's scope names), and each list of sessions the sidebar shows reads the server's list by windows
 * (`GET /api/sessions/window`, list-window.ts): every session, or one conversation's.
 *
 * Invariants: a list's window is shared by every view of that list and lives while one shows it;
 * live session updates re-read each open window (its rows and its count, one read in flight per
 * window), never the whole list; a session is read by key at most once while a read of it is out.
 */
import { create } from 'zustand';
import type { SessionSummary, SessionsWindowPage } from '@mcpscope/protocol';
import { ListWindow } from './list-window.js';

/** Sessions held whole in the browser; past it they are read by windows. */
export const SESSIONS_WHOLE = 5000;
/**
 * Sessions a windowed capture's live store holds (the newest), besides those pinned and those read
 * by key: the most the API reads at once, and more than the door's newest records name in a churn
 * (DOOR_RECENT records, at least three a session), so the clients built from them know their sessions.
 */
export const SESSIONS_HELD = 2000;

/** Which sessions a list holds: every one (the most recently started first), or one conversation's (`''`: those in none). */
export interface SessionListQuery {
  conversation?: string;
  /** The oldest first (a conversation's own order). */
  oldestFirst?: boolean;
}

export type SessionWindowRead = (list: SessionListQuery, at: { offset: number } | { around: string }, limit: number) => Promise<SessionsWindowPage>;

export interface SessionsWindowState {
  /** More sessions than SESSIONS_WHOLE: lists read windows of the server's. */
  windowed: boolean;
  /** Every session in the capture, as the server last counted them (windowed only). */
  total: number;
}

export const useSessionsWindow = create<SessionsWindowState>(() => ({ windowed: false, total: 0 }));

const listKey = (list: SessionListQuery) => JSON.stringify([list.conversation ?? null, list.oldestFirst === true]);

/** Rows read beyond each edge of a sidebar list (its items are tall: a screen holds about ten). */
const MARGIN = 30;
const MAX_ROWS = 200;

export class SessionWindows {
  private readonly open = new Map<string, { window: ListWindow<SessionSummary, string>; users: number }>();
  private readonly reading = new Set<string>();
  private counting = false;

  constructor(
    private readonly read: SessionWindowRead,
    /** Where sessions read by key go (the live store). */
    private readonly hold: (sessions: SessionSummary[]) => void,
  ) {}

  /** The window of `list`, shared while a view shows it; `release` it when the view goes. */
  acquire(list: SessionListQuery): ListWindow<SessionSummary, string> {
    const key = listKey(list);
    let held = this.open.get(key);
    if (!held) {
      const window = new ListWindow<SessionSummary, string>(
        async (_query, at, limit) => {
          // Sidebar lists never follow an end: a window starts at a position or around a session.
          const page = await this.read(list, 'end' in at ? { offset: 0 } : at, limit);
          if (list.conversation === undefined) useSessionsWindow.setState({ total: page.total });
          return { offset: page.offset, rows: page.sessions, total: page.total, complete: true, ...(page.position !== undefined ? { position: page.position } : {}) };
        },
        { margin: MARGIN, maxRows: MAX_ROWS },
      );
      held = { window, users: 0 };
      this.open.set(key, held);
    }
    held.users++;
    return held.window;
  }

  release(list: SessionListQuery): void {
    const key = listKey(list);
    const held = this.open.get(key);
    if (!held || --held.users > 0) return;
    held.window.stop();
    this.open.delete(key);
  }

  /** Sessions changed on the server: each open window reads again, and so does the count. */
  refresh(): void {
    for (const { window } of this.open.values()) window.refresh();
    if (this.counting) return;
    this.counting = true;
    this.read({}, { offset: 0 }, 1)
      .then((page) => useSessionsWindow.setState({ total: page.total }))
      .catch(() => {})
      .finally(() => (this.counting = false));
  }

  /** Reads the session keyed `key` into the live store (one not held: far from the newest). */
  fetch(key: string): void {
    if (this.reading.has(key)) return;
    this.reading.add(key);
    this.read({}, { around: key }, 1)
      .then((page) => {
        const found = page.position !== undefined && page.position >= 0 ? page.sessions.find((s) => s.sessionKey === key) : undefined;
        if (found) this.hold([found]);
      })
      .catch(() => {})
      .finally(() => this.reading.delete(key));
  }

  stop(): void {
    for (const { window } of this.open.values()) window.stop();
    this.open.clear();
  }
}

let windows: SessionWindows | undefined;

/** The session windows the dashboard's syncs started (undefined before them, and in tests without them). */
export function sessionWindows(): SessionWindows | undefined {
  return windows;
}

export function setSessionWindows(next: SessionWindows | undefined): void {
  windows?.stop();
  windows = next;
}
