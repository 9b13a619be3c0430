/**
 * Conversations: `GET /api/conversations` (every conversation that holds something, the most
 * recently started first: key, host, evidence, churn, era lane, counts) and
 * `GET /api/conversations/:key` (one, with its sessions, and its verdict when it stopped short). Its exchanges are a filtered page:
 * `GET /api/exchanges?filter=conversation:KEY`.
 */
import { Hono } from 'hono';
import { conversationVerdict, type ConversationSummary, type ConversationsPage, type ExchangeVerdict, type SessionSummary } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import type { ApiDeps } from '../api-deps.js';

export function conversationRoutes(deps: ApiDeps): Hono {
  return new Hono()
    .get('/conversations', (c) => c.json<ConversationsPage>({ conversations: deps.store.conversations() }))
    .get('/conversations/:key', (c) => {
      const key = c.req.param('key');
      const conversation = deps.store.conversation(key);
      if (!conversation) throw new InspectorError('not_found', `No conversation "${key}".`);
      const verdict = conversationVerdict(conversation);
      return c.json<{ conversation: ConversationSummary; sessions: SessionSummary[]; verdict?: ExchangeVerdict }>({ conversation, sessions: deps.store.sessionsOf(key), ...(verdict ? { verdict } : {}) });
    });
}
