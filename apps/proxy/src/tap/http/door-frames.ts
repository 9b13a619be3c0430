/**
 * How the tap writes frames for one HTTP request: each frame is also linked to the request's door
 * record (`watch.frame`), and the transport frames the tap itself writes (the client left, the
 * upstream failed or broke off) are built here, so their shape has one author.
 */
import { transportFrameText, type FrameInput, type HttpInfo, type Transport } from '@mcpscope/protocol';
import type { RequestWatch } from '../../core/request-watch.js';
import type { LargeBody } from '../../capture/index.js';

/** Records a frame; a large one's text comes from `large` (capture/large-writer.ts), not `raw`. */
export type RecordFrame = (frame: FrameInput, large?: LargeBody) => number;

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
