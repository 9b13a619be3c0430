/**
 * The frames the tap writes for one HTTP request: the client's request (RequestRecorder), each
 * frame linked to the request's door record (`linkedToDoor`), and the transport frames the tap
 * itself writes (the client left, the upstream failed or broke off), so their shape has one author.
 *
 * The client's request is recorded as a c2s frame, once, as soon as its session is known. Stateful
 * Streamable HTTP and legacy POSTs know it before forwarding (so the request always precedes what
 * it causes); otherwise the upstream's answer (its `Mcp-Session-Id`) or a stateless key names it.
 * A streamed body waits for its end (its text is then whole, or with the large-frame writer),
 * unless something forces the record first: then what arrived is recorded as a cut body.
 */
import type { IncomingMessage } from 'node:http';
import { transportFrameText, type FrameInput, type HttpInfo, type Transport } from '@mcpscope/protocol';
import type { RequestWatch } from '../../core/request-watch.js';
import type { LargeBody } from '../../capture/index.js';
import type { StreamedBody } from './request-body.js';

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
