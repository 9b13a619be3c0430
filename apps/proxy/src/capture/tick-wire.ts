/**
 * How a tick's frames cross to the capture engine's worker (worker-engine.ts): as a flat list of
 * strings and numbers, the HTTP layer as JSON text (door records cross as their rows: tick-ops.ts
 * `doorRows`).
 *
 * Why not the objects: a structured clone of an object walks its shape field by field (and a
 * frame's HTTP layer is two header maps), while a flat list of primitives is copied almost as
 * bytes, and V8's JSON.stringify is faster than the clone's object path. The texts are no extra
 * work on the tap's thread: the store writes the HTTP layer as exactly this JSON, which the worker
 * stores as it is.
 */
import type { Frame, StoredText } from '@mcpscope/protocol';

/** Fields per frame in the flat list. */
const FRAME_FIELDS = 9;

/** A tick's frames, flat; a large frame the writer stored goes without its text (its `raw` reads the store back). */
export function flattenFrames(frames: readonly Frame[]): unknown[] {
  const out: unknown[] = new Array(frames.length * FRAME_FIELDS);
  let i = 0;
  for (const f of frames) {
    out[i++] = f.seq;
    out[i++] = f.ts;
    out[i++] = f.sessionKey;
    out[i++] = f.direction;
    out[i++] = f.transport;
    out[i++] = f.kind;
    out[i++] = f.stored ? '' : f.raw;
    out[i++] = f.http ? JSON.stringify(f.http) : null;
    out[i++] = f.stored ?? null;
  }
  return out;
}

/** The frames of `flattenFrames`, with each HTTP layer's JSON text kept beside it (stored as it is). */
export function readFrames(flat: readonly unknown[]): { frames: Frame[]; httpJson: (string | null)[] } {
  const frames: Frame[] = [];
  const httpJson: (string | null)[] = [];
  for (let i = 0; i < flat.length; i += FRAME_FIELDS) {
    const http = flat[i + 7] as string | null;
    const stored = flat[i + 8] as StoredText | null;
    const frame = { seq: flat[i], ts: flat[i + 1], sessionKey: flat[i + 2], direction: flat[i + 3], transport: flat[i + 4], kind: flat[i + 5], raw: flat[i + 6] } as Frame;
    if (http !== null) frame.http = JSON.parse(http) as Frame['http'];
    if (stored !== null) frame.stored = stored;
    frames.push(frame);
    httpJson.push(http);
  }
  return { frames, httpJson };
}
