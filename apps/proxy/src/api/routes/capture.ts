/**
 * Capture status and controls:
 * - `GET /api/capture`: whether capture is storing what the tap forwards (`recording`) or is
 *   paused, by a full disk or a read-only file system (`paused`, with the reason and what was not
 *   recorded) or by the user (`pausedByUser`). `mcpscope open` records nothing: it says
 *   `recording` with nothing lost, and `readOnly` with the file's name, so the dashboard offers
 *   nothing that would send.
 * - `POST /api/capture/pause` and `/resume`: the user's pause. The tap forwards everything either
 *   way; while paused, frames are not stored (counted in `notRecorded`). Both are recorded as marks.
 * - `GET /api/marks`, `POST /api/marks {"label": "…"}`: labelled lines in the timeline, stored in
 *   the capture file.
 */
import { Hono } from 'hono';
import type { CaptureMark, CaptureStatus, MarksPage } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';

export interface CaptureRouteDeps {
  status(): CaptureStatus;
  /** The capture's marks; absent where the file has none to show. */
  marks?(): CaptureMark[];
  /** Absent where nothing is captured (`mcpscope open`). */
  controls?: {
    pause(): void;
    resume(): void;
    mark(label: string): CaptureMark;
  };
}

const NOT_CAPTURING = 'This dashboard shows a file read-only (mcpscope open): there is no capture to pause, and a mark would write to the file.';

function controlsOf(deps: CaptureRouteDeps | undefined): NonNullable<CaptureRouteDeps['controls']> {
  if (!deps?.controls) throw new InspectorError('read_only', NOT_CAPTURING);
  return deps.controls;
}

export function captureRoutes(deps: CaptureRouteDeps | undefined): Hono {
  const status = (): CaptureStatus => (deps ? deps.status() : { state: 'recording', notRecorded: { frames: 0, requests: 0 } });
  const app = new Hono();
  app.get('/capture', (c) => c.json<CaptureStatus>(status()));
  app.post('/capture/pause', (c) => {
    controlsOf(deps).pause();
    return c.json<CaptureStatus>(status());
  });
  app.post('/capture/resume', (c) => {
    controlsOf(deps).resume();
    return c.json<CaptureStatus>(status());
  });
  app.get('/marks', (c) => c.json<MarksPage>({ marks: deps?.marks?.() ?? [] }));
  app.post('/marks', async (c) => {
    const controls = controlsOf(deps);
    const body = (await c.req.json().catch(() => null)) as { label?: unknown } | null;
    const label = typeof body?.label === 'string' ? body.label.trim() : '';
    if (label === '') throw new InspectorError('bad_request', 'A mark needs a label: {"label": "…"}.');
    return c.json<CaptureMark>(controls.mark(label), 201);
  });
  return app;
}
