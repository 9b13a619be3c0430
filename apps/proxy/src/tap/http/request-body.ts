/**
 * Reads a request's body before it is forwarded. A body up to `holdUpTo` bytes is held whole (one
 * write upstream, and capture reads it as one text); past that it is not held: what came so far
 * and the rest go on as a stream as they arrive, while capture keeps the text as it streams
 * (capped-text.ts: the whole body up to `captureLimit` bytes, decoded chunk by chunk or, on a
 * capture file, handed to the large-frame writer thread; past the limit, a bounded head).
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { LargeBody } from '../../capture/index.js';
import { CappedText } from './capped-text.js';

/**
 * Bytes of a request body held before it is forwarded. Below this, one write upstream (most MCP
 * requests are a few hundred bytes); past it, holding would delay the upstream by the whole upload
 * and keep every byte in memory twice (the chunks, then their concatenation), so the body streams
 * on. The same size as LARGE_BODY_BYTES: a streamed body on the MCP path goes to the large-frame
 * writer a chunk or two later.
 */
export const HELD_BODY_BYTES = 1024 * 1024;

/** A body streamed on, with capture's text of it, the bytes held before it streamed, and a promise of its end. */
export interface StreamedBody {
  stream: PassThrough;
  captured: CappedText;
  /** The first bytes, held before the body streamed on (what a session key or an error's id is read from). */
  head: readonly Buffer[];
  ended: Promise<void>;
}

/** A request body: held whole, or streamed on. */
export type RequestBody = { bytes: Buffer } | StreamedBody;

export interface RequestBodyLimits {
  /** Bytes held before the body is streamed on instead. */
  holdUpTo: number;
  /** Bytes capture keeps whole (capped-text.ts). */
  captureLimit: number;
  /** A body for the large-frame writer (capture/large-writer.ts), when capture records this request on a capture file. */
  spill?: () => LargeBody | undefined;
}

/** Whether the request carries a body at all (GET and HEAD never do for the tap). */
export function hasRequestBody(req: IncomingMessage): boolean {
  const method = req.method ?? 'GET';
  return method !== 'GET' && method !== 'HEAD' && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined);
}

/** Calls `ready` once: with the whole body when it ends, or with a stream as soon as it passes `holdUpTo`. */
export function readRequestBody(req: IncomingMessage, limits: RequestBodyLimits, ready: (body: RequestBody) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onEnd = () => ready({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limits.holdUpTo) streamOn();
  };
  const streamOn = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    const captured = new CappedText(limits.captureLimit, limits.spill);
    const stream = new PassThrough();
    for (const c of chunks) {
      captured.push(c);
      stream.write(c);
    }
    const head = chunks.slice();
    chunks.length = 0;
    req.on('data', (c: Buffer) => captured.push(c));
    const ended = new Promise<void>((resolve) => req.once('end', resolve));
    req.pipe(stream);
    ready({ stream, captured, head, ended });
  };
  req.on('data', onData);
  req.on('end', onEnd);
  // A client that leaves mid-body has nothing to forward; its socket is already gone.
  req.on('error', () => {});
}

export function isStreamed(body: RequestBody | undefined): body is StreamedBody {
  return body !== undefined && 'stream' in body;
}
