/**
 * The conversations the sidebar draws, and how many the capture holds. Held whole (up to
 * CONVERSATIONS_WHOLE): the newest CONVERSATIONS_SHOWN of the live store's, sorted here, and the
 * chosen one wherever it is. Read by windows: the page of the server's list the sidebar shows
 * (store/conversation-windows.ts), and the chosen one, read by key when it is not on the page.
 */
import type { ConversationSummary } from '@mcpscope/protocol';
import { useLive } from '../store/live-store.js';
import { useConversationsWindow } from '../store/conversation-windows.js';
import { useConversation } from '../store/use-conversation.js';
import { listed, shownConversations } from '../ui/conversation-facts.js';

export interface SidebarConversations {
  shown: ConversationSummary[];
  /** Conversations in the capture. */
  total: number;
  /** How many are not drawn and not reachable by paging (held whole: past CONVERSATIONS_SHOWN). */
  more: number;
  /** Read by windows: the page's position in the list. */
  page?: { offset: number; rows: number };
}

export function useSidebarConversations(chosen: string | undefined): SidebarConversations {
  const windowed = useConversationsWindow((s) => s.windowed);
  const conversations = useLive((s) => (windowed ? undefined : s.conversations));
  const window = useConversationsWindow((s) => (windowed ? s : undefined));
  const chosenOne = useConversation(windowed ? chosen : undefined);
  if (!window) {
    const list = listed(conversations?.values() ?? []);
    return { ...shownConversations(list, chosen), total: list.length };
  }
  const shown = window.rows.slice();
  if (chosenOne && !shown.some((c) => c.key === chosenOne.key)) shown.push(chosenOne);
  return { shown, total: window.total, more: 0, page: { offset: window.offset, rows: window.rows.length } };
}
