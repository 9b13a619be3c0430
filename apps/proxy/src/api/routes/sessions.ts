/**
 * `GET /api/sessions`: every session, most recently active first; `?conversations=K1,K2,…` those
 * of the conversations named (at most MAX_SESSIONS_WINDOW: the sidebar's one-session conversations
 * of a page, read at once). `GET /api/sessions/window?limit=N`
 * with `offset=N` or `around=KEY`: the sessions the most recently started first, read by position
 * with how many there are (the sidebar of a capture with tens of thousands of sessions);
 * `conversation=KEY` reads that conversation's sessions only (`conversation=`: those in none),
 * `oldest=1` the oldest first (a conversation's order).
 */
import { Hono } from 'hono';
import type { SessionsPage, SessionsWindowPage } from '@mcpscope/protocol';
import type { ApiDeps } from '../api-deps.js';
import { intParam } from '../params.js';

/** Largest window: a few screens of the sidebar and their margin. */
export const MAX_SESSIONS_WINDOW = 2000;
/** Conversations one `?conversations=` read names at most: a few pages of the sidebar. */
export const MAX_CONVERSATIONS_ASKED = 500;

export function sessionRoutes(deps: ApiDeps): Hono {
  const app = new Hono();
  app.get('/sessions', (c) => {
    const conversations = c.req.query('conversations');
    if (conversations === undefined) return c.json<SessionsPage>({ sessions: deps.store.sessions() });
    const keys = conversations.split(',').filter((k) => k !== '').slice(0, MAX_CONVERSATIONS_ASKED);
    return c.json<SessionsPage>({ sessions: deps.store.sessionsOfConversations(keys, MAX_SESSIONS_WINDOW) });
  });
  app.get('/sessions/window', (c) => {
    const limit = intParam(c, 'limit', { fallback: 200, min: 1, max: MAX_SESSIONS_WINDOW });
    const around = c.req.query('around');
    const conversation = c.req.query('conversation');
    const list = { ...(conversation !== undefined ? { conversation } : {}), oldestFirst: c.req.query('oldest') === '1' };
    const position = around !== undefined ? deps.store.sessionPosition(around, list) : undefined;
    const offset = position !== undefined ? Math.max(0, position - Math.floor(limit / 2)) : intParam(c, 'offset', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
    const { total, sessions } = deps.store.sessionsAt(offset, limit, list);
    const page: SessionsWindowPage = { offset: Math.min(offset, total), sessions, total };
    if (position !== undefined) page.position = position;
    return c.json(page);
  });
  return app;
}
