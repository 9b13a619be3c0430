/**
 * Records what an upstream response carries, chunk by chunk as the tap forwards it: an SSE
 * stream's events, one frame each, or a JSON body collected (bounded, capped-text.ts) and recorded
 * when it ends, or, for a redirect, the transport row that ends what it answered. All write to
 * `ResponseFrames`, whose session and transport a legacy `endpoint` event may still change.
 */
import { SseParser, transportFrameText, type HttpInfo, type SseEvent, type SseItem, type Transport } from '@mcpscope/protocol';
import type { RecordFrame } from './client-request.js';
import { CappedText } from './capped-text.js';
import { looksLikeReply } from './request-count.js';
import type { LargeBody } from '../../capture/index.js';

/** Where one response's frames go. */
export interface ResponseFrames {
  record: RecordFrame;
  now(): number;
  sessionKey: string;
  transport: Transport;
  http: HttpInfo;
  /** A large-frame writer's body for a body that turns out large (none: capture keeps it here). */
  largeBody?: () => LargeBody | undefined;
}

export interface ResponseRecorder {
  /** Sees each chunk after it was written to the client. */
  push(chunk: Buffer): void;
  /** The body ended. */
  end(): void;
  /** The body broke off: what arrived is evidence too. */
  broke(): void;
  /** The stream carried event ids: a client that leaves may resume it (not a cancellation). */
  readonly resumable: boolean;
}

/** A response on a path that is not recorded, or a legacy POST's `Accepted`. */
export const NOT_RECORDED: ResponseRecorder = { push() {}, end() {}, broke() {}, resumable: false };

/**
 * One frame per SSE event that carries a message. A POST's stream that ends with fewer replies than
 * the requests it carried (`expectedReplies`), and carried no event ids to resume by, ends with a
 * `stream-ended` transport frame: pairing closes what it left unanswered. A stream that carried its
 * replies ends with no frame of its own.
 */
export class SseRecorder implements ResponseRecorder {
  resumable = false;
  private readonly parser = new SseParser();
  private replies = 0;

  constructor(
    private readonly frames: ResponseFrames,
    private readonly expectedReplies?: number,
  ) {}

  push(chunk: Buffer): void {
    this.events(this.parser.push(chunk));
  }

  end(): void {
    this.events(this.parser.end());
    const expected = this.expectedReplies;
    // A stream with event ids may be resumed (the client reconnects with Last-Event-ID and the
    // reply comes then): it is not ended short.
    if (expected === undefined || this.replies >= expected || this.resumable || this.frames.http.method !== 'POST') return;
    const frames = this.frames;
    const message = `the server ended the event stream after ${this.replies} of the ${expected} replies the POST asked for`;
    frames.record({ ts: frames.now(), sessionKey: frames.sessionKey, direction: 's2c', transport: frames.transport, kind: 'transport', raw: transportFrameText('stream-ended', message), http: frames.http });
  }

  broke(): void {}

  private events(items: SseItem[]): void {
    for (const item of items) if (item.type === 'event') this.event(item);
  }

  private event(event: SseEvent): void {
    if (event.id !== undefined) this.resumable = true;
    // Priming events carry no message; the legacy `endpoint` event is transport plumbing.
    if (!event.hasData || event.data === '' || event.event === 'endpoint') return;
    const frames = this.frames;
    const http: HttpInfo = { ...frames.http };
    if (event.id !== undefined) http.sseId = event.id;
    if (event.event !== undefined) http.sseEvent = event.event;
    if (event.truncated) http.cut = { size: event.size! };
    if (looksLikeReply(event.data)) this.replies++;
    frames.record({ ts: frames.now(), sessionKey: frames.sessionKey, direction: 's2c', transport: frames.transport, kind: 'data', raw: event.data, http });
  }
}

/** The whole body as one frame (a cut one says so), when there was any. */
export class BodyRecorder implements ResponseRecorder {
  readonly resumable = false;
  private readonly collected: CappedText;

  constructor(
    private readonly frames: ResponseFrames,
    maxBodyBytes: number | undefined,
  ) {
    this.collected = new CappedText(maxBodyBytes, frames.largeBody);
  }

  push(chunk: Buffer): void {
    this.collected.push(chunk);
  }

  end(): void {
    const collected = this.collected;
    const frames = this.frames;
    // A large body went to the writer thread as it streamed: the frame is recorded without its text.
    if (collected.large) return void frames.record({ ts: frames.now(), sessionKey: frames.sessionKey, direction: 's2c', transport: frames.transport, kind: 'data', raw: '', http: frames.http }, collected.large);
    const text = collected.text();
    if (text.length === 0) return;
    frames.record({ ts: frames.now(), sessionKey: frames.sessionKey, direction: 's2c', transport: frames.transport, kind: 'data', raw: text, http: collected.cut ? { ...frames.http, cut: { size: collected.size } } : frames.http });
  }

  broke(): void {
    this.end();
  }
}

/**
 * A redirect on the MCP endpoint: no message came back, the client was sent elsewhere. What it
 * waited for ends here as a transport row that says where and why (a body, if any, is a page for
 * browsers, not a message). A client that follows the redirect sends the request again there as a
 * new exchange.
 */
export class RedirectRecorder implements ResponseRecorder {
  readonly resumable = false;
  private recorded = false;

  constructor(
    private readonly frames: ResponseFrames,
    private readonly message: string,
  ) {}

  push(): void {}

  end(): void {
    if (this.recorded) return;
    this.recorded = true;
    const frames = this.frames;
    frames.record({ ts: frames.now(), sessionKey: frames.sessionKey, direction: 's2c', transport: frames.transport, kind: 'transport', raw: transportFrameText('redirected', this.message), http: frames.http });
  }

  broke(): void {
    this.end();
  }
}
