/**
 * The dashboard API and WebSocket contract, shared by apps/proxy (which serves it) and apps/web
 * (which consumes it). DESIGN.md's "Contract" section names these routes; keep them stable.
 */
import type { ExchangeStatus, ExchangeSummary } from '../model/exchange.js';
import type { Direction, FrameKind, HttpInfo, Transport } from '../model/frame.js';
import type { SessionSummary } from '../session/session-summary.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

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

/**
 * `GET /api/exchanges/:id` cuts bodies at 1 MiB (with `truncated` and `size` set); the whole text
 * is at `GET /api/frames/:seq/raw` (`Range: bytes=` for pieces, `?download=1` for a file).
 */
export const DETAIL_RAW_LIMIT = 1024 * 1024;

/** What retention (`--max-frames`, `--max-bytes`) has removed from this capture file. */
export interface RetentionInfo {
  /** Frames removed over the life of the file; 0 when retention never ran. */
  removedFrames: number;
  /** The oldest seq still stored (0 when nothing was removed). */
  oldestSeq: number;
}

export interface FramesPage {
  frames: FrameView[];
  /** The highest seq in the store when the page was read. */
  head: number;
  /**
   * Pass as `after` to read on. Present when more may follow: the page is full, or a filtered
   * scan stopped at its row budget (then `frames` may be short, even empty).
   */
  nextAfter?: number;
  retention: RetentionInfo;
}

export interface ExchangesPage {
  exchanges: ExchangeSummary[];
  head: number;
  /** Pass as `before` to read the next (older) page; absent on the last page. */
  nextBefore?: number;
  retention: RetentionInfo;
}

export interface ExchangeDetail {
  exchange: ExchangeSummary;
  /** Every frame of the exchange, bodies cut at DETAIL_RAW_LIMIT. */
  frames: FrameView[];
  /** Findings about the exchange and its frames, in capture order. */
  diagnostics: Diagnostic[];
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
  /** `position`/`length` point into the `filter` parameter when `code` is `bad_filter`. */
  error: { code: string; message: string; position?: number; length?: number };
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
