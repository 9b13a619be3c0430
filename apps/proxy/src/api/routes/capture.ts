/**
 * `GET /api/capture`: how capture keeps up with the tap (CaptureStatus): which thread records,
 * what is queued, and what the tap forwarded but could not record (dropped, counted, never silent).
 * `{ thread: 'off', … }` when nothing is recorded (`mcpscope open` records only its import).
 */
import { Hono } from 'hono';
import type { CaptureStatus } from '@mcpscope/protocol';

export interface CaptureRouteDeps {
  status(): CaptureStatus;
}

const OFF: CaptureStatus = { thread: 'off', queued: { frames: 0, chars: 0 }, dropped: { frames: 0, chars: 0 } };

export function captureRoutes(deps: CaptureRouteDeps | undefined): Hono {
  return new Hono().get('/capture', (c) => c.json<CaptureStatus>(deps ? deps.status() : OFF));
}
