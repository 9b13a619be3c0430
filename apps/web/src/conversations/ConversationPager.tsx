/**
 * Below a page of a windowed conversations list (store/conversation-windows.ts): which positions
 * it shows of how many, and a step to the newer or older page.
 */
import { CONVERSATIONS_PAGE, conversationWindows } from '../store/conversation-windows.js';

export function ConversationPager({ offset, rows, total }: { offset: number; rows: number; total: number }) {
  const go = (to: number) => conversationWindows()?.show(to);
  return (
    <li className="conv-pager muted" data-testid="conversation-pager">
      <button type="button" className="small" disabled={offset === 0} onClick={() => go(offset - CONVERSATIONS_PAGE)}>
        ‹ newer
      </button>
      <span data-testid="conversation-page">
        {rows === 0 ? 0 : offset + 1}–{offset + rows} of {total}
      </span>
      <button type="button" className="small" disabled={offset + rows >= total} onClick={() => go(offset + CONVERSATIONS_PAGE)}>
        older ›
      </button>
    </li>
  );
}
