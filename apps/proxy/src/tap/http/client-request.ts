/**
 * One HTTP request at the tap, from its body to the frames it is recorded as.
 *
 * Its body is read before it is forwarded (`readRequestBody`). A body up to `holdUpTo` bytes is
 * held whole (one write upstream, and capture reads it as one text); past that it is not held:
 * what came so far and the rest go on as a stream as they arrive, while capture keeps the text as
 * it streams (capped-text.ts: the whole body up to `captureLimit` bytes, decoded chunk by chunk
 * or, on a capture file, handed to the large-frame writer thread; past the limit, a bounded head).
 *
 * The frames the tap writes for it: the client's request (RequestRecorder), each frame linked to
 * the request's door record (`linkedToDoor`), and the transport frames the tap itself writes (the
 * client left, the upstream failed or broke off), so their shape has one author.
 *
 * The client's request is recorded as a c2s frame, once, as soon as its session is known. Stateful
 * Streamable HTTP and legacy POSTs know it before forwarding (so the request always precedes what
 * it causes); otherwise the upstream's answer (its `Mcp-Session-Id`) or a stateless key names it.
 * A streamed body waits for its end (its text is then whole, or with the large-frame writer),
 * unless something forces the record first: then what arrived is recorded as a cut body.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { transportFrameText, type FrameInput, type HttpInfo, type Transport } from '@mcpscope/protocol';
import type { RequestWatch } from '../../core/request-watch.js';
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

/** Records a frame; a large one's text comes from `large` (capture/large-writer.ts), not `raw`. */
export type RecordFrame = (frame: FrameInput, large?: LargeBody) => number;

export interface RequestFrame {
  /** Whether this path carries MCP traffic the tap records. */
  recordHere: boolean;
  /** A body held whole, as text (undefined: none, or streamed). */
  text: string | undefined;
  /** A body streamed on: capture's text of it is read when the request is recorded. */
  streamed: StreamedBody | undefined;
  transport: Transport;
  ts: number;
  /** The request's HTTP facts; a cut body adds `cut` here when recorded. */
  http: HttpInfo;
  headers: IncomingMessage['headers'];
  onRequestHeaders?(sessionKey: string, headers: IncomingMessage['headers']): void;
}

export class RequestRecorder {
  /** The session the request belongs to, once known. */
  sessionKey: string | undefined;
  /** Whether the request frame was written (a departure is only worth a frame after it). */
  recorded = false;
  private bodyEnded: boolean;

  constructor(
    private readonly request: RequestFrame,
    private readonly record: RecordFrame,
  ) {
    this.bodyEnded = request.streamed === undefined;
    void request.streamed?.ended.then(() => {
      this.bodyEnded = true;
      if (this.sessionKey !== undefined) this.recordAs(this.sessionKey);
    });
  }

  /** Names the session and records the request; `now: false` lets a streamed body finish first. */
  recordAs(key: string, now = true): void {
    this.sessionKey = key;
    const request = this.request;
    if (!request.recordHere || (request.text === undefined && !request.streamed) || this.recorded || (!now && !this.bodyEnded)) return;
    request.onRequestHeaders?.(key, request.headers);
    this.recorded = true;
    const frame = { ts: request.ts, sessionKey: key, direction: 'c2s', transport: request.transport, kind: 'data', http: request.http } as const;
    const captured = request.streamed?.captured;
    if (!captured) return void this.record({ ...frame, raw: request.text! });
    if (!this.bodyEnded) captured.stop();
    if (captured.cut) request.http.cut = { size: captured.size };
    // A body with the large-frame writer is recorded without its text here (large-writer.ts).
    if (captured.large) this.record({ ...frame, raw: '' }, captured.large);
    else this.record({ ...frame, raw: captured.text() });
  }
}

/** `record` that also tells the door which frames rode on this request. */
export function linkedToDoor(record: RecordFrame, watch: RequestWatch): RecordFrame {
  return (frame, large) => {
    const seq = record(frame, large);
    watch.frame(seq, frame.sessionKey);
    return seq;
  };
}

/** The door record's id as frames carry it (`http.requestId`), or nothing when the door is off. */
export function doorLink(watch: RequestWatch): { requestId?: number } {
  return watch.id !== undefined ? { requestId: watch.id } : {};
}

/** The client closed the connection before the answer ended: the cancellation, as a frame. */
export function recordClientLeft(record: RecordFrame, now: () => number, sessionKey: string, transport: Transport, http: HttpInfo): void {
  record({ ts: now(), sessionKey, direction: 'c2s', transport, kind: 'transport', raw: transportFrameText('client-disconnected', 'the client closed the connection; the upstream request was aborted'), http: { method: http.method, path: http.path, connectionId: http.connectionId!, ...(http.requestId !== undefined ? { requestId: http.requestId } : {}) } });
}

/** The upstream never answered: the 502 the client gets, as a frame. */
export function recordUpstreamError(record: RecordFrame, now: () => number, sessionKey: string, reason: string, http: HttpInfo): void {
  record({ ts: now(), sessionKey, direction: 's2c', transport: 'http-json', kind: 'transport', raw: transportFrameText('upstream-error', reason), http });
}

/** The upstream's body broke off after the answer began. */
export function recordStreamError(record: RecordFrame, now: () => number, sessionKey: string, transport: Transport, reason: string, http: HttpInfo): void {
  record({ ts: now(), sessionKey, direction: 's2c', transport, kind: 'transport', raw: transportFrameText('stream-error', reason), http });
}
