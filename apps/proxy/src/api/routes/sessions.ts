/** `GET /api/sessions`: every session, most recently active first. */
import { Hono } from 'hono';
import type { SessionsPage } from '@mcpscope/protocol';
import type { ApiDeps } from '../api-deps.js';

export function sessionRoutes(deps: ApiDeps): Hono {
  return new Hono().get('/sessions', (c) => c.json<SessionsPage>({ sessions: deps.store.sessions() }));
}
