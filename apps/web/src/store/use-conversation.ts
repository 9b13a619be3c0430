/**
 * One conversation by key, for a view that names it (the filter's `conversation:KEY`, from the
 * URL or a link): from the live store, or, when the capture's conversations are read by windows
 * and this one is not held, read by key (conversation-windows.ts). `undefined` while it is read,
 * `null` when the capture holds no such conversation.
 */
import { useEffect } from 'react';
import type { ConversationSummary } from '@mcpscope/protocol';
import { useLive } from './live-store.js';
import { conversationWindows, useConversationsWindow } from './conversation-windows.js';

export function useConversation(key: string | undefined): ConversationSummary | null | undefined {
  const held = useLive((s) => (key === undefined ? undefined : s.conversations.get(key)));
  const windowed = useConversationsWindow((s) => s.windowed);
  const absent = useConversationsWindow((s) => key !== undefined && s.absent.has(key));
  const missing = key !== undefined && held === undefined;
  useEffect(() => {
    if (missing && windowed && !absent) conversationWindows()?.fetch(key);
  }, [missing, windowed, absent, key]);
  if (key === undefined || held !== undefined) return held;
  return windowed && !absent ? undefined : null;
}
