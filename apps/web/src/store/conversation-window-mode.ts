/**
 * Conversations read by windows, kept so while the dashboard is open: a capture whose
 * conversations grow past CONVERSATIONS_WHOLE becomes windowed in place; the live store then keeps
 * the newest CONVERSATIONS_HELD and the pinned ones (the chosen conversation), the sidebar's page
 * is read from the server, and a conversation a view names but the store does not hold is read by
 * key (use-conversation.ts).
 */
import type { LiveStore } from './live-store.js';
import { CONVERSATIONS_HELD, CONVERSATIONS_WHOLE, useConversationsWindow, type ConversationWindows } from './conversation-windows.js';

export function startConversationWindowMode(live: LiveStore, windows: ConversationWindows, pinned: () => Iterable<string>): () => void {
  const start = () => {
    live.holdNewestConversations(CONVERSATIONS_HELD, pinned);
    windows.show(useConversationsWindow.getState().offset);
  };
  if (useConversationsWindow.getState().windowed) start();
  const stopMode = useConversationsWindow.subscribe((s, prev) => {
    if (s.windowed && !prev.windowed) start();
  });
  const stopLive = live.subscribe((s, prev) => {
    if (s.conversations === prev.conversations || useConversationsWindow.getState().windowed) return;
    if (s.conversations.size > CONVERSATIONS_WHOLE) useConversationsWindow.setState({ windowed: true, total: s.conversations.size });
  });
  return () => (stopMode(), stopLive());
}
