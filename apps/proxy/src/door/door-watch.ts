/**
 * One request's door record as it changes: what the tap tells it (RequestWatch), what the
 * response sends (ResponseObserver), and its end. Each change goes to the sink, which writes the
 * record's latest state within the tick.
 *
 * One object with methods rather than a closure per event: every request on the MCP path gets one,
 * and the closures (a dozen per request, with their context) were a third of what the door
 * allocated per call (1.84 KB, now 1.22 KB; bench/README.md, 4 Dec 2026).
 */
import { DOOR_FRAME_SEQ_LIMIT, type DoorRecord } from '@mcpscope/protocol';
import type { RequestWatch } from '../core/request-watch.js';
import { capturedHeaders } from '../upstream/captured-headers.js';
import type { BodyCapture } from './body-capture.js';
import type { ResponseObserver } from './response-watch.js';

export interface DoorSink {
  nextDoorId(): number;
  doorChanged(record: DoorRecord): void;
}

export class DoorWatch implements RequestWatch, ResponseObserver {
  readonly id: number;
  /** The upstream's body broke off: the end is 'upstream-cut', whatever the client saw. */
  private cut = false;

  constructor(
    private readonly record: DoorRecord,
    private readonly sink: DoorSink,
    private readonly now: () => number,
    /** Bodies kept (OAuth endpoints and metadata documents only). */
    private readonly requestBody: BodyCapture | undefined,
    private readonly responseBody: BodyCapture | undefined,
  ) {
    this.id = record.id;
  }

  changed(): void {
    this.sink.doorChanged(this.record);
  }

  requestChunk(chunk: Buffer): void {
    this.record.requestBytes += chunk.length;
    this.requestBody?.push(chunk);
  }

  requestEnded(): void {
    const body = this.requestBody;
    if (body && body.size > 0) {
      this.record.requestBody = body.body();
      this.changed();
    }
  }

  head(status: number, headers: Record<string, string>): void {
    const record = this.record;
    record.status = status;
    record.firstByteMs = this.now() - record.ts;
    record.responseHeaders = capturedHeaders(headers);
    const session = headers['mcp-session-id'];
    if (session !== undefined && record.mcpSessionId === undefined) record.mcpSessionId = session;
    this.changed();
  }

  chunk(data: Buffer | string): void {
    this.record.responseBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    this.responseBody?.push(data);
  }

  /** The response ended (the first call counts). */
  finish(end: DoorRecord['end']): void {
    const record = this.record;
    if (record.end !== 'open') return;
    record.end = this.cut ? 'upstream-cut' : end;
    record.endMs = this.now() - record.ts;
    const { requestBody, responseBody } = this;
    if (responseBody && responseBody.size > 0) record.responseBody = responseBody.body();
    if (requestBody && requestBody.size > 0 && !record.requestBody) record.requestBody = requestBody.body();
    this.changed();
  }

  answeredByTap(kind: 'preflight' | 'tap'): void {
    this.record.answer = kind;
  }

  corsAdded(upstreamAllowOrigin: string | undefined): void {
    this.record.upstreamCors = upstreamAllowOrigin === undefined ? {} : { allowOrigin: upstreamAllowOrigin };
  }

  frame(seq: number, sessionKey: string): void {
    const record = this.record;
    record.mcp = true;
    record.sessionKey = sessionKey;
    record.frameCount = (record.frameCount ?? 0) + 1;
    const seqs = (record.frameSeqs ??= []);
    // A frame capture could not keep (paused: a full disk) has no seq to link to.
    if (seq >= 0 && seqs.length < DOOR_FRAME_SEQ_LIMIT) {
      seqs.push(seq);
      this.changed();
    }
  }

  upstreamFailed(reason: string): void {
    this.record.answer = 'upstream-failed';
    this.record.note = reason;
  }

  upstreamCut(reason: string): void {
    this.cut = true;
    this.record.note = reason;
  }
}
