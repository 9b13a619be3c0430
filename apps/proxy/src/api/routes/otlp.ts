/**
 * `GET /api/otlp`: how the live OTLP export is doing (`--otlp URL`): where spans go, and how many
 * were exported, are waiting, were dropped because the backend could not keep up, or failed.
 * `{ enabled: false }` when mcpscope exports nothing.
 */
import { Hono } from 'hono';
import type { OtlpStatus } from '@mcpscope/protocol';

export interface OtlpRouteDeps {
  status(): OtlpStatus;
}

export function otlpRoutes(deps: OtlpRouteDeps | undefined): Hono {
  return new Hono().get('/otlp', (c) => c.json<OtlpStatus>(deps ? deps.status() : { enabled: false }));
}
