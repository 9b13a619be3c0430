/**
 * Reads a request's body before it is forwarded. A body up to `limit` bytes is held whole (one
 * write upstream, and capture reads it as one text); past that it is not held: what came so far
 * and the rest go on as a stream, with capture keeping a bounded head (capped-text.ts).
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { CappedText } from './capped-text.js';

/** A body streamed on, with its first part kept for capture and a promise of its end (its size). */
export interface StreamedBody {
  stream: PassThrough;
  captured: CappedText;
  ended: Promise<void>;
}

/** A request body: held whole, or streamed on. */
export type RequestBody = { bytes: Buffer } | StreamedBody;

/** Whether the request carries a body at all (GET and HEAD never do for the tap). */
export function hasRequestBody(req: IncomingMessage): boolean {
  const method = req.method ?? 'GET';
  return method !== 'GET' && method !== 'HEAD' && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined);
}

/** Calls `ready` once: with the whole body when it ends, or with a stream as soon as it passes `limit`. */
export function readRequestBody(req: IncomingMessage, limit: number, ready: (body: RequestBody) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onEnd = () => ready({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) streamOn();
  };
  const streamOn = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    const captured = new CappedText(limit);
    captured.tooLarge();
    const stream = new PassThrough();
    for (const c of chunks) {
      captured.push(c);
      stream.write(c);
    }
    chunks.length = 0;
    req.on('data', (c: Buffer) => captured.push(c));
    const ended = new Promise<void>((resolve) => req.once('end', resolve));
    req.pipe(stream);
    ready({ stream, captured, ended });
  };
  req.on('data', onData);
  req.on('end', onEnd);
  // A client that leaves mid-body has nothing to forward; its socket is already gone.
  req.on('error', () => {});
}

export function isStreamed(body: RequestBody | undefined): body is StreamedBody {
  return body !== undefined && 'stream' in body;
}
