/**
 * The dashboard API and WebSocket contract, shared by apps/proxy (which serves it) and apps/web
 * (which consumes it). DESIGN.md's "Contract" section names these routes; keep them stable.
 */
import type { ExchangeStatus, ExchangeSummary } from '../model/exchange.js';
import type { Direction, FrameKind, HttpInfo, Transport } from '../model/frame.js';
import type { SessionSummary } from '../session/session-summary.js';

/** A frame as lists carry it: bodies above `FRAME_RAW_LIMIT` are cut and say their full size. */
export interface FrameView {
  seq: number;
  ts: number;
  sessionKey: string;
  direction: Direction;
  transport: Transport;
  kind: FrameKind;
  raw: string;
  /** Bytes of the full raw text (UTF-16 code units as stored). */
  size: number;
  truncated: boolean;
  http?: HttpInfo;
}

/** Lists cut bodies at 64 KiB; the detail routes return them whole or as a download. */
export const FRAME_RAW_LIMIT = 64 * 1024;

export interface FramesPage {
  frames: FrameView[];
  /** The highest seq in the store when the page was read. */
  head: number;
}

export interface ExchangesPage {
  exchanges: ExchangeSummary[];
  head: number;
  /** Pass as `before` to read the next (older) page; absent on the last page. */
  nextBefore?: number;
}

export interface ExchangeDetail {
  exchange: ExchangeSummary;
  frames: FrameView[];
}

export interface SessionsPage {
  sessions: SessionSummary[];
}

export interface HealthResponse {
  ok: true;
}

/** Body of `POST /api/replay`. */
export interface ReplayRequest {
  exchangeId?: string;
  /** The whole JSON-RPC message to send, as text or as a value. */
  message: unknown;
  mode: 'session' | 'fresh';
}

/** Errors the API answers with, as `{ error: { code, message } }`. Codes are ours, never wire codes. */
export interface ApiError {
  error: { code: string; message: string };
}

/** Messages the server sends on `/ws`. Each carries `head`: the last seq it covers. */
export type ServerEvent =
  | { type: 'hello'; head: number }
  | { type: 'frames/add'; head: number; frames: FrameView[] }
  | { type: 'exchanges/update'; head: number; exchanges: ExchangeSummary[] }
  | { type: 'sessions/update'; head: number; sessions: SessionSummary[] }
  /** The client fell too far behind: reload from the API from `head`. Nothing is dropped silently. */
  | { type: 'resync'; head: number; reason: string }
  /** Retention removed frames: the dashboard says so. */
  | { type: 'retention'; head: number; removedFrames: number; oldestSeq: number };

export type ExchangeStatusCounts = Partial<Record<ExchangeStatus, number>>;

/** The list form of a frame: the raw text cut at `rawLimit`, with its full size stated. */
export function toFrameView(frame: import('../model/frame.js').Frame, rawLimit = FRAME_RAW_LIMIT): FrameView {
  const truncated = frame.raw.length > rawLimit;
  const view: FrameView = {
    seq: frame.seq,
    ts: frame.ts,
    sessionKey: frame.sessionKey,
    direction: frame.direction,
    transport: frame.transport,
    kind: frame.kind,
    raw: truncated ? frame.raw.slice(0, rawLimit) : frame.raw,
    size: frame.raw.length,
    truncated,
  };
  if (frame.http) view.http = frame.http;
  return view;
}
