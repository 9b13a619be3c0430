/**
 * The tap listener: the MCP endpoint that clients use. It only forwards and records; it never
 * serves the dashboard, the API or the token.
 */
import { Hono } from 'hono';
import { forward, type ForwardDeps } from './forward.js';

export function createTapApp(deps: ForwardDeps): Hono {
  const app = new Hono();
  app.all('*', (c) => forward(c.req.raw, deps));
  return app;
}
