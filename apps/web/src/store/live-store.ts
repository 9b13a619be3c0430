/**
 * The dashboard's live state: exchanges, sessions and the connection status. Deltas from the
 * WebSocket are queued and applied once per animation frame, so a burst of frames costs one
 * render, not one per message.
 */
import { create } from 'zustand';
import type { ExchangeSummary, SessionSummary } from '@mcpscope/protocol';
import { applyExchanges, emptyIndex, type ExchangeIndex } from './exchange-index.js';

export type ConnectionState = 'connecting' | 'live' | 'down';

export interface LiveState {
  exchanges: ExchangeIndex;
  sessions: Map<string, SessionSummary>;
  /** Highest frame seq the dashboard has fully applied. */
  head: number;
  connection: ConnectionState;
  error?: string;
  selectedId?: string;
  select(id: string | undefined): void;
}

export const useLive = create<LiveState>((set) => ({
  exchanges: emptyIndex(),
  sessions: new Map(),
  head: 0,
  connection: 'connecting',
  select: (id) => set({ selectedId: id }),
}));

let pendingExchanges: ExchangeSummary[] = [];
let pendingSessions: SessionSummary[] = [];
let pendingHead = 0;
let scheduled = false;

/** Queues deltas; they are applied together on the next animation frame. */
export function queueDelta(head: number, exchanges: readonly ExchangeSummary[], sessions: readonly SessionSummary[] = []): void {
  pendingExchanges.push(...exchanges);
  pendingSessions.push(...sessions);
  pendingHead = Math.max(pendingHead, head);
  if (scheduled) return;
  scheduled = true;
  const flush = () => {
    scheduled = false;
    const ex = pendingExchanges;
    const ss = pendingSessions;
    const head = pendingHead;
    pendingExchanges = [];
    pendingSessions = [];
    useLive.setState((state) => {
      const sessions = ss.length > 0 ? new Map(state.sessions) : state.sessions;
      for (const s of ss) sessions.set(s.sessionKey, s);
      return { exchanges: applyExchanges(state.exchanges, ex), sessions, head: Math.max(state.head, head) };
    });
  };
  // Hidden tabs get no animation frames; fall back to a timer so the state still advances.
  if (document.visibilityState === 'visible') requestAnimationFrame(flush);
  else setTimeout(flush, 100);
}
