/**
 * Conversations: `GET /api/conversations` (every conversation that holds something, the most
 * recently started first: key, host, evidence, churn, era lane, counts),
 * `GET /api/conversations/window?limit=N` with `offset=N` or `around=KEY` (that list read by
 * position, with how many it holds: the sidebar of a capture with tens of thousands) and
 * `GET /api/conversations/:key` (one, with its sessions, and its verdict when it stopped short). Its exchanges are a filtered page:
 * `GET /api/exchanges?filter=conversation:KEY`.
 */
import { Hono } from 'hono';
import { conversationVerdict, type ConversationSummary, type ConversationsPage, type ConversationsWindowPage, type ExchangeVerdict, type SessionSummary } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import type { ApiDeps } from '../api-deps.js';
import { intParam } from '../params.js';

/** Largest window: a few screens of the sidebar and their margin. */
export const MAX_CONVERSATIONS_WINDOW = 2000;

export function conversationRoutes(deps: ApiDeps): Hono {
  return new Hono()
    .get('/conversations', (c) => c.json<ConversationsPage>({ conversations: deps.store.conversations() }))
    // Before `/conversations/:key`, which would take `window` for a key.
    .get('/conversations/window', (c) => {
      const limit = intParam(c, 'limit', { fallback: 200, min: 1, max: MAX_CONVERSATIONS_WINDOW });
      const around = c.req.query('around');
      const position = around !== undefined ? deps.store.conversationPosition(around) : undefined;
      const offset = position !== undefined ? Math.max(0, position - Math.floor(limit / 2)) : intParam(c, 'offset', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
      const { total, conversations } = deps.store.conversationsAt(offset, limit);
      const page: ConversationsWindowPage = { offset: Math.min(offset, total), conversations, total };
      if (position !== undefined) page.position = position;
      return c.json(page);
    })
    .get('/conversations/:key', (c) => {
      const key = c.req.param('key');
      const conversation = deps.store.conversation(key);
      if (!conversation) throw new InspectorError('not_found', `No conversation "${key}".`);
      const verdict = conversationVerdict(conversation);
      return c.json<{ conversation: ConversationSummary; sessions: SessionSummary[]; verdict?: ExchangeVerdict }>({ conversation, sessions: deps.store.sessionsOf(key), ...(verdict ? { verdict } : {}) });
    });
}
