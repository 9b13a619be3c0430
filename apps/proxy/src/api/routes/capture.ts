/**
 * `GET /api/capture`: whether capture is storing what the tap forwards (`recording`) or is paused
 * by a full disk or a read-only file system (`paused`, with the reason and what was not
 * recorded). `mcpscope open` records nothing: it says `recording` with nothing lost, and `readOnly`
 * with the file's name, so the dashboard offers nothing that would send.
 */
import { Hono } from 'hono';
import type { CaptureStatus } from '@mcpscope/protocol';

export interface CaptureRouteDeps {
  status(): CaptureStatus;
}

export function captureRoutes(deps: CaptureRouteDeps | undefined): Hono {
  return new Hono().get('/capture', (c) => c.json<CaptureStatus>(deps ? deps.status() : { state: 'recording', notRecorded: { frames: 0, requests: 0 } }));
}
