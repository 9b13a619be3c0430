/**
 * The one session of each one-session conversation the sidebar draws, in a capture whose sessions
 * are read by windows (session-windows.ts): read for all the drawn conversations at once
 * (`GET /api/sessions?conversations=…`), so a page of the sidebar costs one read, not a window
 * over each conversation's sessions (a read a row: a host's churn makes pages of such rows).
 *
 * Invariants: `sessions` holds, by conversation key, the sessions read for conversations the
 * sidebar draws and nothing else; a conversation is asked for once while it stays drawn (its
 * later states come live: `absorb`), and one the server had no session for (or whose read
 * failed) is in `missing` (its row reads its sessions itself); one read is in flight at a time,
 * what was drawn meanwhile is read after it. `refresh` (a resync, retention) reads every drawn
 * one again.
 */
import { create } from 'zustand';
import type { ConversationSummary, SessionSummary, SessionsPage } from '@mcpscope/protocol';

export type LoneSessionsRead = (conversations: readonly string[]) => Promise<SessionsPage>;

export interface LoneSessionsState {
  /** The session of each drawn one-session conversation, by conversation key. */
  sessions: ReadonlyMap<string, SessionSummary>;
  /** Drawn conversations the server answered no session for. */
  missing: ReadonlySet<string>;
}

const initial: LoneSessionsState = { sessions: new Map(), missing: new Set() };

export const useLoneSessions = create<LoneSessionsState>(() => initial);

/** A conversation whose sidebar row lists a single session, read with its page's others. */
export const isLone = (c: ConversationSummary) => c.churn.sessions === 1;

export class LoneSessions {
  private drawn = new Set<string>();
  private readonly asked = new Set<string>();
  private inFlight = false;
  private stopped = false;

  constructor(private readonly read: LoneSessionsRead) {}

  /** The sidebar draws the one-session conversations `keys`: those not asked for yet are read, in one request. */
  show(keys: readonly string[]): void {
    this.drawn = new Set(keys);
    for (const key of this.asked) if (!this.drawn.has(key)) this.asked.delete(key);
    const s = useLoneSessions.getState();
    const sessions = new Map([...s.sessions].filter(([key]) => this.drawn.has(key)));
    const missing = new Set([...s.missing].filter((key) => this.drawn.has(key)));
    if (sessions.size !== s.sessions.size || missing.size !== s.missing.size) useLoneSessions.setState({ sessions, missing });
    this.readUnasked();
  }

  /** Live session updates: a held lone session takes its later state. */
  absorb(updates: readonly SessionSummary[]): void {
    const { sessions } = useLoneSessions.getState();
    let next: Map<string, SessionSummary> | undefined;
    for (const s of updates) {
      const conversation = s.conversationKey;
      if (conversation === undefined || sessions.get(conversation)?.sessionKey !== s.sessionKey) continue;
      next ??= new Map(sessions);
      next.set(conversation, s);
    }
    if (next) useLoneSessions.setState({ sessions: next });
  }

  /** What the server holds may have changed in ways live updates do not say: every drawn one is read again. */
  refresh(): void {
    this.asked.clear();
    this.readUnasked();
  }

  stop(): void {
    this.stopped = true;
  }

  private readUnasked(): void {
    if (this.inFlight || this.stopped) return;
    const keys = [...this.drawn].filter((key) => !this.asked.has(key));
    if (keys.length === 0) return;
    for (const key of keys) this.asked.add(key);
    this.inFlight = true;
    this.read(keys)
      .then((page) => {
        const s = useLoneSessions.getState();
        const sessions = new Map(s.sessions);
        const missing = new Set(s.missing);
        const found = new Map(page.sessions.map((session) => [session.conversationKey, session]));
        for (const key of keys) {
          if (!this.drawn.has(key)) continue;
          const session = found.get(key);
          if (session) {
            sessions.set(key, session);
            missing.delete(key);
          } else missing.add(key);
        }
        useLoneSessions.setState({ sessions, missing });
      })
      .catch(() => {
        // Their rows read their sessions themselves (the connection banner says when the proxy is gone).
        const missing = new Set(useLoneSessions.getState().missing);
        for (const key of keys) if (this.drawn.has(key)) missing.add(key);
        useLoneSessions.setState({ missing });
      })
      .finally(() => {
        this.inFlight = false;
        this.readUnasked();
      });
  }
}

let lone: LoneSessions | undefined;

/** The lone sessions' reader the dashboard's syncs started (undefined before them, and in tests without them). */
export function loneSessions(): LoneSessions | undefined {
  return lone;
}

export function setLoneSessions(next: LoneSessions | undefined): void {
  lone?.stop();
  lone = next;
  useLoneSessions.setState(initial, true);
}
