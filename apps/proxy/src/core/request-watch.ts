/**
 * What the tap tells an observer about each request it lets in, beyond what the request and the
 * response themselves show: that the tap answered it itself, which
 * frames rode on it, and how the upstream failed. The tap calls it and the door recorder (door/)
 * implements it; the two features meet in compose/, so the contract lives down here. Without an
 * observer the tap uses UNWATCHED, which costs nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RequestWatch {
  /** The door record's id, when the request is recorded (frames name it: `http.requestId`). */
  readonly id?: number;
  /** The tap answered itself: a CORS preflight, or (stdio mode) a path it does not serve. */
  answeredByTap(kind: 'preflight' | 'tap'): void;
  /** A frame the request or its answer carried was recorded with this seq. */
  frame(seq: number, sessionKey: string): void;
  /** The tap adds CORS headers to the upstream's answer; the upstream's own Access-Control-Allow-Origin (absent: none). */
  corsAdded(upstreamAllowOrigin: string | undefined): void;
  /** The upstream failed before answering; the tap answers 502. */
  upstreamFailed(reason: string): void;
  /** The upstream's body broke off after the answer began. */
  upstreamCut(reason: string): void;
}

/** Called once per request the guard lets in, as it arrives, before anything is answered. */
export type WatchRequest = (req: IncomingMessage, res: ServerResponse) => RequestWatch;

/** Why the guard refused a request: its reason, and the Host when the Host was the cause. */
export interface Refusal {
  reason: string;
  refusedHost?: { host: string; fix: string };
}

/** Called instead for a request the Host/Origin guard refused (the tap answers 403 with the reason). */
export type RefusedRequest = (req: IncomingMessage, refusal: Refusal) => void;

const nothing = () => {};

export const UNWATCHED: RequestWatch = { answeredByTap: nothing, frame: nothing, corsAdded: nothing, upstreamFailed: nothing, upstreamCut: nothing };
