/**
 * Frames in capture order: `GET /api/frames?after=SEQ&limit=N&filter=EXPR` (bodies cut at 64 KiB,
 * with their full size stated; with a filter, the frames of matching exchanges), and
 * `GET /api/frames/:seq/raw`, one frame's whole text as a download or in pieces (`Range`).
 */
import { Hono } from 'hono';
import type { FramesPage } from '@mcpscope/protocol';
import { InspectorError } from '../../core/errors.js';
import { readRetentionState } from '../../capture/retention.js';
import type { ApiDeps } from '../api-deps.js';
import { filterParam, intParam } from '../params.js';

export const MAX_FRAMES_PAGE = 5000;

export function frameRoutes(deps: ApiDeps): Hono {
  const app = new Hono();

  app.get('/frames', (c) => {
    const after = intParam(c, 'after', { fallback: 0, min: 0, max: Number.MAX_SAFE_INTEGER });
    const limit = intParam(c, 'limit', { fallback: 500, min: 1, max: MAX_FRAMES_PAGE });
    const filter = filterParam(c);
    const head = deps.store.head();
    const page = deps.query.frames(filter, after, limit);
    return c.json<FramesPage>({ head, ...page, retention: readRetentionState(deps.store) });
  });

  app.get('/frames/:seq/raw', (c) => {
    const seq = Number(c.req.param('seq'));
    if (!Number.isSafeInteger(seq) || seq < 1) throw new InspectorError('bad_param', `"${c.req.param('seq')}" is not a frame seq.`);
    const frame = deps.store.frameRaw(seq);
    if (!frame) throw new InspectorError('not_found', `No frame ${seq} (it may have been removed by retention).`);
    const bytes = Buffer.from(frame.raw);
    const headers: Record<string, string> = {
      // Always plain text: captured bytes are shown, never interpreted (nosniff is set globally).
      'content-type': 'text/plain; charset=utf-8',
      'accept-ranges': 'bytes',
      'x-mcpscope-size': String(bytes.length),
    };
    if (c.req.query('download') !== undefined) headers['content-disposition'] = `attachment; filename="mcpscope-frame-${seq}.txt"`;
    const range = c.req.header('range');
    if (range === undefined) return c.body(bytes, 200, headers);
    const piece = parseRange(range, bytes.length);
    if (!piece) return c.body(null, 416, { ...headers, 'content-range': `bytes */${bytes.length}` });
    return c.body(bytes.subarray(piece.start, piece.end + 1), 206, { ...headers, 'content-range': `bytes ${piece.start}-${piece.end}/${bytes.length}` });
  });

  return app;
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range (RFC 9110 §14.1.2); undefined when unsatisfiable. */
export function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : undefined;
}
