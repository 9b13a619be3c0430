/**
 * What a view reads of one session by key (a timeline row's client, the filter's scope): from the
 * live store, or, when the capture's sessions are read by windows and this one is not held, read
 * by key (session-windows.ts); undefined until it arrives. `pick` returns a value compared by
 * identity, so a view re-renders when what it shows changes, not on every count.
 */
import { useEffect } from 'react';
import type { SessionSummary } from '@mcpscope/protocol';
import { useLive } from './live-store.js';
import { sessionWindows, useSessionsWindow } from './session-windows.js';

export function useSessionFact<T>(key: string | undefined, pick: (s: SessionSummary) => T): T | undefined {
  const value = useLive((s) => {
    const session = key === undefined ? undefined : s.sessions.get(key);
    return session === undefined ? undefined : pick(session);
  });
  const missing = useLive((s) => key !== undefined && !s.sessions.has(key));
  useEffect(() => {
    if (missing && key !== undefined && useSessionsWindow.getState().windowed) sessionWindows()?.fetch(key);
  }, [missing, key]);
  return value;
}
