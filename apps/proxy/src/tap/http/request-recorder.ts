/**
 * Records the client's request as a c2s frame, once, as soon as its session is known. Stateful
 * Streamable HTTP and legacy POSTs know it before forwarding (so the request always precedes what
 * it causes); otherwise the upstream's answer (its `Mcp-Session-Id`) or a stateless key names it.
 * A streamed body waits for its end (its text is then whole, or with the large-frame writer),
 * unless something forces the record first: then what arrived is recorded as a cut body.
 */
import type { IncomingMessage } from 'node:http';
import type { HttpInfo, Transport } from '@mcpscope/protocol';
import type { RecordFrame } from './door-frames.js';
import type { StreamedBody } from './request-body.js';

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
