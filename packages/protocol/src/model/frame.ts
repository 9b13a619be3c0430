/**
 * The unit of capture. A frame is written once and never rewritten: everything else mcpscope
 * shows (messages, exchanges, sessions, diagnostics) is derived from frames and can be rebuilt.
 */
import { utf8Length } from './utf8.js';

/** Who sent the bytes: the MCP client (`c2s`) or the MCP server (`s2c`). */
export type Direction = 'c2s' | 's2c';

/** How the bytes travelled. `replay` marks frames that mcpscope itself sent. */
export type Transport = 'http-json' | 'sse' | 'stdio' | 'legacy-sse' | 'replay';

/**
 * `data` frames carry protocol bytes (JSON or not). `transport` frames record what happened to a
 * connection (upstream down, reset, child exited); `log` frames hold a stdio server's stderr.
 */
export type FrameKind = 'data' | 'transport' | 'log';

/** The HTTP exchange a frame rode on, with secrets already redacted. */
export interface HttpInfo {
  method: string;
  path: string;
  status?: number;
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
  /** Identifies one HTTP request/response pair, so frames from one SSE stream group together. */
  connectionId?: string;
  /** The door record (`GET /api/requests/:id`) of the HTTP request the frame rode on. */
  requestId?: number;
  /** The SSE event's `id:` and `event:` fields, when the frame was an SSE event. */
  sseId?: string;
  sseEvent?: string;
  /**
   * A fingerprint of the request's bearer credential (`Authorization`), salted per capture and
   * taken by the tap before redaction: it tells two requests with the same credential apart from
   * two with different ones, and nothing else. Never the credential itself.
   */
  credential?: string;
  /**
   * Set when the body (or the SSE event) was larger than mcpscope keeps whole: the frame's `raw`
   * holds only its first part, and `size` is the length of the whole, in bytes (characters for an
   * SSE event). The tap forwarded all of it.
   */
  cut?: { size: number };
  /** On a client request an intercept rule acted on: which rule, and what it did to the exchange. */
  rule?: RuleMark;
  /**
   * On a frame mcpscope made (`made`: an answer in the server's place, a notification) or changed
   * (`changed`: an edited, padded or cut frame) because of a rule: never real traffic. The original
   * of a changed frame is kept beside it (the capture's interventions).
   */
  injected?: RuleMark & { what: 'made' | 'changed' };
}

/** An intercept rule as a frame names it: its id in the capture's rule set, and its action. */
export interface RuleMark {
  rule: string;
  /** The rule as written (`tool:search => delay 5s`), so an export names it without the rule set. */
  text: string;
  action: string;
}

/** A frame as the tap hands it to the store, before it has a sequence number. */
export interface FrameInput {
  ts: number;
  sessionKey: string;
  direction: Direction;
  transport: Transport;
  kind: FrameKind;
  raw: string;
  http?: HttpInfo;
}

/** A stored frame: `seq` is global and strictly increasing in capture order. */
export interface Frame extends FrameInput {
  seq: number;
  /**
   * Set on a large frame the capture thread never held whole (its text went straight to the store
   * from a writer thread): reading `raw` reads it back from the store, so what only needs its
   * length or its first characters reads them here.
   */
  stored?: StoredText;
}

/** What the capture thread keeps of a large frame's text (see `Frame.stored`). */
export interface StoredText {
  /** `raw.length`. */
  chars: number;
  /** UTF-8 bytes of `raw`. */
  bytes: number;
  /** The first characters of `raw` (FRAME_RAW_LIMIT of them, one less before a surrogate pair, or all). */
  head: string;
  /** How many stored pieces follow `head` (the capture file's `frame_parts`). */
  pieces: number;
}

/** A frame's length in characters, without reading a stored text back. */
export function rawLength(frame: Frame): number {
  return frame.stored ? frame.stored.chars : frame.raw.length;
}

/** UTF-8 bytes of a frame's whole body as it went over the wire: a cut body counts whole. */
export function bodyBytes(frame: Frame): number {
  if (frame.http?.cut) return frame.http.cut.size;
  return frame.stored ? frame.stored.bytes : utf8Length(frame.raw);
}
