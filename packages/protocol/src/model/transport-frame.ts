/**
 * A transport frame is mcpscope's own record that the path itself failed (the upstream could not
 * be reached, a stream broke, the client left, a stdio child exited, a replay gave up, the
 * upstream redirected an MCP request elsewhere instead of answering it, a POST's event stream ended
 * with fewer replies than the requests it carried; `unanswered` is set by pairing, never written, when a request's carrier ended without its reply, and
 * `authorization-required` when the server answered it with an OAuth challenge, not JSON-RPC,
 * authorization-answer.ts): its raw
 * text is `{"event": "...", "message": "..."}`. Written by the tap, replay and the HAR reader;
 * read by pairing (which turns the exchange it belongs to into a transport_error) and the views.
 */
import { isJsonObject } from './json-rpc.js';

export const TRANSPORT_EVENTS = ['upstream-error', 'stream-error', 'client-disconnected', 'child-exited', 'child-error', 'replay-timeout', 'redirected', 'stream-ended', 'unanswered', 'authorization-required'] as const;
export type TransportEvent = (typeof TRANSPORT_EVENTS)[number];

const KNOWN_EVENTS: ReadonlySet<string> = new Set(TRANSPORT_EVENTS);

/** Whether a transport frame's `event` is one mcpscope writes (a frame from elsewhere may carry anything). */
export function isTransportEvent(event: string | undefined): event is TransportEvent {
  return event !== undefined && KNOWN_EVENTS.has(event);
}

export function transportFrameText(event: TransportEvent, message: string): string {
  return JSON.stringify({ event, message });
}

/** The event and message of a transport frame; a frame not written by mcpscope is shown as its text. */
export function parseTransportFrame(raw: string): { event?: string; message: string } {
  try {
    const value = JSON.parse(raw) as unknown;
    if (isJsonObject(value) && typeof value.message === 'string') {
      return typeof value.event === 'string' ? { event: value.event, message: value.message } : { message: value.message };
    }
  } catch {
    // fall through: show the text as it is
  }
  return { message: raw };
}
