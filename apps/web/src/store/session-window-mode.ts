/**
 * Sessions read by windows, kept so while the dashboard is open: a capture whose sessions grow
 * past SESSIONS_WHOLE becomes windowed in place, the live store then keeps the newest
 * SESSIONS_HELD sessions and the pinned ones (the chosen session, those the door's records name),
 * and a session a view names but the store does not hold is read by key (use-session.ts). Its
 * exchanges are read by windows too (window-mode.ts): filters on a session's facts then run on the
 * server, which holds every session.
 */
import type { LiveStore } from './live-store.js';
import { SESSIONS_HELD, SESSIONS_WHOLE, useSessionsWindow } from './session-windows.js';

export function startSessionWindowMode(live: LiveStore, pinned: () => Iterable<string>): () => void {
  const hold = () => live.holdNewestSessions(SESSIONS_HELD, pinned);
  if (useSessionsWindow.getState().windowed) hold();
  const stopMode = useSessionsWindow.subscribe((s, prev) => {
    if (s.windowed && !prev.windowed) hold();
  });
  const stopLive = live.subscribe((s, prev) => {
    if (s.sessions === prev.sessions || useSessionsWindow.getState().windowed) return;
    if (s.sessions.size > SESSIONS_WHOLE) useSessionsWindow.setState({ windowed: true, total: s.sessions.size });
  });
  return () => (stopMode(), stopLive());
}
