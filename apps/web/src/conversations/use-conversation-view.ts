/**
 * Keeps a conversation's timeline whole: a session joins (or leaves) a conversation on its first
 * call that names the host's conversation, after its initialize and tools/list rows are already
 * in the view. While the filter names a conversation, a session moving re-applies the filter to
 * every row (rows are matched as they change, and those did not change).
 */
import { useEffect } from 'react';
import type { ExchangePredicate } from '../store/view-index.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { chosenConversation } from '../ui/conversation-facts.js';

export function useConversationView(predicate: ExchangePredicate): void {
  useEffect(
    () =>
      useLive.subscribe((state, before) => {
        if (state.sessions === before.sessions || !chosenConversation(useUi.getState().filter)) return;
        for (const [key, s] of state.sessions) {
          if (before.sessions.get(key)?.conversationKey !== s.conversationKey) {
            state.setPredicate(predicate);
            return;
          }
        }
      }),
    [predicate],
  );
}
