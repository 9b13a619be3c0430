/**
 * The dashboard's state kept in step with the proxy, composed in one place: the live store
 * (exchanges, sessions, frames) owns the one WebSocket; the door records and the capture status
 * ride on it (each event is handed to both; the socket resumes from the door's cursor). Also the
 * read-only answer, asked once. Stopping stops them all.
 */
import { useEffect } from 'react';
import type { ServerEvent } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { startCaptureSync } from '../capture/capture-state.js';
import { startDoorSync } from '../door/door-sync.js';
import { startLiveSync } from '../store/live-sync.js';
import { useLive } from '../store/live-store.js';
import { WindowFetcher, setWindowFetcher } from '../store/window-store.js';
import { startWindowMode } from '../store/window-mode.js';
import { SessionWindows, setSessionWindows, useSessionsWindow } from '../store/session-windows.js';
import { startSessionWindowMode } from '../store/session-window-mode.js';
import { LoneSessions, setLoneSessions } from '../store/lone-sessions.js';
import { ConversationWindows, resetConversationsWindow, setConversationWindows, useConversationsWindow } from '../store/conversation-windows.js';
import { startConversationWindowMode } from '../store/conversation-window-mode.js';
import { chosenConversation } from '../ui/conversation-facts.js';
import { useUi } from '../store/ui-store.js';
import { useCompare } from '../compare/index.js';
import { useLoadReadOnly } from '../store/read-only.js';
import { useDoor } from '../store/door-store.js';

export function startDashboardSyncs(api: ApiClient): () => void {
  const door = startDoorSync(api);
  const capture = startCaptureSync(api);
  // Sessions past SESSIONS_WHOLE: the sidebar's lists read windows, which session updates re-read.
  const sessions = new SessionWindows(api.sessionWindow.bind(api), (held) => useLive.queueDelta({ sessions: held }));
  setSessionWindows(sessions);
  // Conversations past CONVERSATIONS_WHOLE: the sidebar shows a page of the server's list, which
  // conversation updates move (or re-read).
  resetConversationsWindow();
  const conversations = new ConversationWindows(api.conversationWindow.bind(api), (held) => useLive.queueDelta({ conversations: held }));
  setConversationWindows(conversations);
  // A windowed capture: traffic moves the window's rows and counts, joined to it as they come or
  // read again (one read in flight at a time); the live index keeps the newest rows and what the
  // user holds (the selection, compare's picks).
  // Sessions read by windows: the sidebar's one-session conversations read theirs together.
  const lone = new LoneSessions(api.sessionsOfConversations.bind(api));
  setLoneSessions(lone);
  const fetcher = new WindowFetcher(api);
  setWindowFetcher(fetcher);
  const onEvent = (event: ServerEvent) => {
    door.onEvent(event);
    capture.onEvent(event);
    if (event.type === 'sessions/update' && useSessionsWindow.getState().windowed) {
      sessions.refresh();
      lone.absorb(event.sessions);
    }
    if (event.type === 'retention' || event.type === 'resync') lone.refresh();
    if (useConversationsWindow.getState().windowed) {
      if (event.type === 'conversations/update') conversations.absorb(event.conversations);
      else if (event.type === 'retention' || event.type === 'resync') conversations.refresh();
    }
    if (event.type === 'exchanges/update') fetcher.changed(event.exchanges);
    else if (event.type === 'retention' || event.type === 'resync') fetcher.changed();
  };
  const stop = startLiveSync(api, useLive, { onEvent, socketParams: door.socketParams });
  const pinned = () => {
    const { selected } = useUi.getState();
    const { picked } = useCompare.getState();
    return selected === undefined ? picked : [selected, ...picked];
  };
  const stopWindow = startWindowMode(useLive, fetcher, pinned);
  // Sessions held past the newest: the chosen one, and those the door's records name (the clients
  // list is built from them).
  const heldSessions = function* () {
    const { session } = useUi.getState();
    if (session !== undefined) yield session;
    for (const r of useDoor.getState().records.values()) if (r.sessionKey !== undefined) yield r.sessionKey;
  };
  const stopSessions = startSessionWindowMode(useLive, heldSessions);
  const chosen = function* () {
    const key = chosenConversation(useUi.getState().filter);
    if (key !== undefined) yield key;
  };
  const stopConversations = startConversationWindowMode(useLive, conversations, chosen);
  return () => (stop(), door.stop(), stopWindow(), stopSessions(), stopConversations(), setWindowFetcher(undefined), setSessionWindows(undefined), setConversationWindows(undefined), setLoneSessions(undefined));
}

export function useDashboardSyncs(api: ApiClient): void {
  useEffect(() => startDashboardSyncs(api), [api]);
  useLoadReadOnly(api);
}
