/**
 * The dashboard API and WebSocket contract, shared by apps/proxy (which serves it) and apps/web
 * (which consumes it). DESIGN.md's "Contract" section names these routes; keep them stable.
 */
import type { ExchangeStatus, ExchangeSummary } from '../model/exchange.js';
import { bodyBytes, rawLength, type Frame } from '../model/frame.js';
import type { JsonObject } from '../model/json-rpc.js';
import type { SessionSummary } from '../session/session-summary.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ConversationSummary } from '../conversation/conversation-summary.js';
import type { DoorRecord } from '../door/door-record.js';
import type { ExchangeVerdict } from '../verdict/verdict.js';

/**
 * A frame as lists carry it: bodies above `FRAME_RAW_LIMIT` are cut (`raw` is then the first part)
 * and say their full size.
 */
export interface FrameView extends Frame {
  /** Length of the full raw text in UTF-16 code units, as stored (what `truncated` and slices count). */
  size: number;
  /** UTF-8 bytes of the whole body as it went over the wire (bodyBytes): what a user reads as its size. */
  bytes: number;
  truncated: boolean;
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

/**
 * `GET /api/exchanges/window`: the exchanges a filter keeps, in capture order (oldest first), read
 * by position. `total` is the list's length; while `complete` is false the capture is still being
 * searched (bodies), `total` only grows, and rows found so far keep their positions.
 */
export interface ExchangeWindowPage {
  /** Position of `exchanges[0]` in the list. */
  offset: number;
  exchanges: ExchangeSummary[];
  total: number;
  complete: boolean;
  /** Asked with `around=ID`: that exchange's position in the list, -1 when the filter does not keep it. */
  position?: number;
  head: number;
}

export interface ExchangeDetail {
  exchange: ExchangeSummary;
  /** Every frame of the exchange, bodies cut at DETAIL_RAW_LIMIT. */
  frames: FrameView[];
  /** Findings about the exchange and its frames, in capture order. */
  diagnostics: Diagnostic[];
  /** Whose fault it is and the fix, for an exchange that did not end ok (verdict/verdict.ts). */
  verdict?: ExchangeVerdict;
}

/**
 * `GET /api/requests?after=ID&limit=N&filter=EXPR`: door records (every HTTP request at the tap),
 * oldest first, filtered on the server with the filter language (`http.path:`, `http.status:`,
 * `kind:http` …). Bodies are kept only for OAuth endpoints and metadata documents, each at most
 * DOOR_BODY_LIMIT bytes, secrets redacted.
 */
export interface RequestsPage {
  requests: DoorRecord[];
  /** The highest record id stored when the page was read. */
  head: number;
  /** The highest `rev` written: open the WebSocket with `requestsRev=` this to miss no change. */
  rev: number;
  /** Pass as `after` to read on; present when more may follow (a full page, or a scan cut short). */
  nextAfter?: number;
}

export interface SessionsPage {
  sessions: SessionSummary[];
}

/**
 * `GET /api/requests/window?filter=EXPR&limit=N` with one of `offset=N`, `end=1` or `around=ID`:
 * the door records a filter keeps, oldest first, read by position, with the list's length.
 */
export interface RequestsWindowPage {
  /** Position of `requests[0]` in the list. */
  offset: number;
  requests: DoorRecord[];
  /** Length of the list (of what is found so far while `complete` is false). */
  total: number;
  complete: boolean;
  /** Asked with `around=ID`: that record's position in the list, -1 when the filter does not keep it. */
  position?: number;
  /** The highest `rev` written when the window was read. */
  rev: number;
}

/**
 * `GET /api/sessions/window?limit=N` with `offset=N` or `around=KEY`: every session, the most
 * recently started first (the sidebar's order), read by position, with how many there are.
 */
export interface SessionsWindowPage {
  offset: number;
  sessions: SessionSummary[];
  total: number;
  /** Asked with `around=KEY`: that session's position, -1 when there is no such session. */
  position?: number;
}

/** `GET /api/conversations`: conversations that hold something, newest first. */
export interface ConversationsPage {
  conversations: ConversationSummary[];
}

/**
 * `GET /api/conversations/window?limit=N` with `offset=N` or `around=KEY`: the conversations
 * `GET /api/conversations` lists (the most recently started first, the sidebar's order), read by
 * position, with how many there are.
 */
export interface ConversationsWindowPage {
  offset: number;
  conversations: ConversationSummary[];
  total: number;
  /** Asked with `around=KEY`: that conversation's position, -1 when there is no such conversation. */
  position?: number;
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
  /** For a message composed from scratch: the session to send it into (or to copy in `fresh`). */
  sessionKey?: string;
}

/** Answer of `POST /api/replay` (HTTP 200): the new, finished exchange and how it was sent. */
export interface ReplayResponse {
  exchange: ExchangeSummary;
  /** The exchange this one replays (absent for a message composed from scratch). */
  replayOf?: string;
  mode: 'session' | 'fresh';
  /** The JSON-RPC id mcpscope used on the wire: `mcpscope-replay-<n>`, never a client's id. */
  sentId?: string;
  /** The session the replay went into (for `fresh`, the one mcpscope opened). */
  sessionKey: string;
  /** Things the user should know, e.g. credentials mcpscope no longer holds (after a restart). */
  warnings?: string[];
  /**
   * Session mode, when the original session was gone: the replay went into the newest live
   * session of the same conversation instead. Says which, and why.
   */
  sessionFallback?: { from: string; to: string; conversationKey: string; reason: string };
}

/**
 * Answer of `POST /api/replay` when the upstream could not answer (502 unreachable, 409 session
 * expired): the failure was still captured as a `transport_error` exchange.
 */
export interface ReplayFailure extends ApiError {
  exchange?: ExchangeSummary;
  /** Set when another mode can work, e.g. `fresh` after the upstream forgot the session. */
  retryWith?: 'fresh';
}

/** Both directions of the replay link, for the dashboard: `GET /api/replay/links/:id`. */
export interface ReplayLinks {
  replayOf?: string;
  replays: string[];
}

/** Body of `POST /api/replay/curl`; answer: `{ command }`. Secrets are placeholders unless `secrets`. */
export interface CurlRequest {
  exchangeId?: string;
  message: unknown;
  mode?: 'session' | 'fresh';
  sessionKey?: string;
  secrets?: boolean;
}

/**
 * A request the server sent mcpscope during a replay (sampling, elicitation, roots): it waits for
 * the dashboard user (`POST /api/replay/inputs/:key`) and is declined when its time runs out.
 */
export interface ReplayInput {
  key: string;
  sessionKey: string;
  /** The server request's own exchange, when it was captured as one. */
  exchangeId?: string;
  method: string;
  params?: unknown;
  /** Epoch ms at which mcpscope declines it on the user's behalf. */
  expiresAt: number;
}

/** Answer of `GET /api/replay/inputs`: what waits for the dashboard user now. */
export interface ReplayInputsResponse {
  inputs: ReplayInput[];
}

/** Answer of `GET /api/replay/tools?session=KEY`: the tools of the session's latest `tools/list`. */
export interface ReplayToolsResponse {
  tools: JsonObject[];
}

/** Body of `POST /api/replay/inputs/:key`. */
export type ReplayInputAnswer = { action: 'answer'; result: unknown } | { action: 'decline' };

/**
 * How mcpscope answers a server's request to a session it drives when nobody is there to
 * (`--server-answers FILE`, `PUT /api/drive/answers`); a kind left out waits for the dashboard
 * user. `elicitation: "accept"` accepts a form with its defaults (else the simplest valid values).
 */
export interface ServerAnswerDefaults {
  sampling?: { text: string; model?: string } | 'decline';
  elicitation?: 'accept' | 'decline' | 'cancel';
  roots?: Array<{ uri: string; name?: string }>;
}

/**
 * Body of `POST /api/drive/send`: a message the Drive panel built, sent into mcpscope's own
 * dashboard session (`fresh`) or a captured one (`session`, with `sessionKey`). `from` names the
 * list exchange the form was built from. A `tools/call` or `prompts/get` whose arguments break the
 * schema is refused (422, `violations`) unless `anyway`.
 */
export interface DriveSendRequest {
  message: unknown;
  mode: 'session' | 'fresh';
  sessionKey?: string;
  from?: string;
  anyway?: boolean;
}

export interface DriveViolation {
  /** JSON path into the message (`$.params.arguments.a`). */
  path: string;
  message: string;
}

/** Answer of `POST /api/drive/send`: the replay's answer, with what the arguments broke (sent anyway). */
export interface DriveSendResponse extends ReplayResponse {
  violations: DriveViolation[];
}

/** 422 answer of `POST /api/drive/send`: nothing was sent. */
export interface DriveRefusal extends ApiError {
  violations: DriveViolation[];
}

/** One list a session's server answered: its items, and the exchange that carried them. */
export interface DriveList {
  exchangeId?: string;
  items: JsonObject[];
}

/** `GET /api/drive/lists?session=KEY`: the latest list of each kind the session's server gave. */
export interface DriveLists {
  tools: DriveList;
  prompts: DriveList;
  resources: DriveList;
  resourceTemplates: DriveList;
}

/** `POST /api/drive/own` `{ renew? }`: mcpscope's own dashboard session, opened if need be. */
export interface DriveOwnResponse {
  sessionKey: string;
}

/**
 * `GET /api/tap/hosts`, and the answer of `POST /api/tap/hosts` `{ host }`: the Host names the
 * user accepted for this run from the dashboard (besides `--public-url` and `--allow-host`).
 */
export interface TapHostsResponse {
  accepted: string[];
}

/** `GET /api/info`: where clients should connect, for the dashboard's first-run page. */
export interface DashboardInfo {
  tapUrl: string;
  mcpUrl: string;
  upstreamUrl: string;
  demo: boolean;
  /** The origin of `--public-url`, when given (OAuth metadata names it after the tap's rewrite). */
  publicOrigin?: string;
}

/**
 * `GET /api/otlp`: the live OTLP export (`--otlp URL`), for the dashboard's top bar. Every span
 * is in exactly one of `waiting`, `exported`, `dropped` (the queue was full: the backend is down
 * or slow and the tap would not wait) or `failed` (the backend refused or never answered).
 */
export interface OtlpStatus {
  enabled: boolean;
  /** The traces endpoint spans go to. */
  endpoint?: string;
  protocol?: 'http/protobuf' | 'http/json';
  /** Redacted bodies are on spans (`--otlp-bodies`). */
  bodies?: boolean;
  waiting?: number;
  exported?: number;
  dropped?: number;
  failed?: number;
  maxQueueSize?: number;
  /** The last export that failed, and why (ms since the epoch). */
  lastError?: { message: string; at: number };
  lastSuccessAt?: number;
}

/**
 * `GET /api/capture`: whether what the tap forwards is being stored. Traffic flows either way: a
 * capture failure (a full disk, a read-only file system) pauses capture, never forwarding, and
 * capture resumes by itself once the store takes writes again.
 */
export interface CaptureStatus {
  state: 'recording' | 'paused';
  /**
   * Set while the user paused capture (`POST /api/capture/pause`): the tap forwards everything,
   * and the frames it forwards meanwhile are not stored (counted in `notRecorded`), until
   * `POST /api/capture/resume`. A full disk can pause capture at the same time (`reason`).
   */
  pausedByUser?: { since: number };
  /** Why capture is paused, in words a banner can show: `disk full`, `the capture file is read-only`. */
  reason?: string;
  /** When capture paused (ms since the epoch). */
  since?: number;
  /** What was forwarded but not stored, since mcpscope started. */
  notRecorded: { frames: number; requests: number };
  /**
   * Frames capture dropped because it fell behind (part of `notRecorded`): while a large frame is
   * being written, the traffic behind it waits in memory up to a bound, and what comes past the
   * bound is forwarded but not stored. With when that last happened (ms since the epoch).
   */
  fellBehind?: { frames: number; at: number };
  /** The latest capture failure (paused or not), and when (ms since the epoch). */
  lastError?: { message: string; at: number };
  /**
   * Set once the capture engine's worker thread (a capture file) died: how many times a new
   * worker replaced it, and, once it kept dying soon after its start, since when (ms since the
   * epoch) capture derives and writes on the tap's own thread instead (nothing is lost; the tap
   * has less CPU for forwarding).
   */
  engineWorker?: { restarts: number; inProcessSince?: number };
  /** Set by `mcpscope open FILE`: the dashboard shows a file, with no proxy to send through. */
  readOnly?: { file: string };
}

/**
 * A line in the capture's timeline (`GET /api/marks`): a labelled mark the user dropped
 * (`POST /api/marks {"label"}`), or where capture was paused and resumed from the dashboard.
 * Stored in the capture file and exported with it (JSONL lines `"type":"mark"`).
 */
export interface CaptureMark {
  id: number;
  ts: number;
  /** The newest frame stored when the mark was made: it sits after that frame's rows. */
  afterSeq: number;
  kind: 'mark' | 'pause' | 'resume';
  label: string;
}

export interface MarksPage {
  marks: CaptureMark[];
}

/** One redaction rule that matched, and how often. */
export interface RedactionHit {
  /** What matched: `key access_token`, `header authorization`, `path $.params.x`, `jwt`, … */
  rule: string;
  count: number;
}

/** What an export redacts (or would), for the user to read before downloading. */
export interface RedactionReport {
  enabled: boolean;
  /** What the export redacts, in words. */
  rules: string[];
  hits: RedactionHit[];
}

/** `GET /api/export/preview`: what an export with the same parameters would hold. */
export interface ExportPreview {
  frames: number;
  exchanges: number;
  sessions: number;
  redaction: RedactionReport;
}

/** A line or entry an import could not read; the rest of the file was imported. */
export interface ImportProblem {
  /** Where: `line 7`, `entry 3 (POST http://…/mcp)`, `file`. */
  where: string;
  message: string;
}

export type ImportFormat = 'mcpscope-jsonl' | 'har' | 'mcpscope-db';

/** What an import brought in (`POST /api/import`, `mcpscope open`). */
export interface ImportReport {
  format: ImportFormat;
  /** The name imported sessions carry (`import:<name>:…`). */
  name: string;
  frames: number;
  sessionKeys: string[];
  /** HAR entries that carried no MCP traffic. */
  skipped: number;
  /** HTTP requests at the door brought back (mcpscope JSONL and capture files). */
  requests?: number;
  /** Replay links brought back (which exchange replays which; mcpscope JSONL and capture files). */
  links?: number;
  /** Lines or entries that could not be imported; the rest was. */
  problems: ImportProblem[];
}

/** Answer of `POST /api/import`. */
export interface ImportResponse {
  report: ImportReport;
}

/** Answer of `POST /api/replay/curl`. */
export interface CurlResponse {
  command: string;
}

/** Errors the API answers with, as `{ error: { code, message } }`. Codes are ours, never wire codes. */
export interface ApiError {
  /** `position`/`length` point into the `filter` parameter when `code` is `bad_filter`. */
  error: { code: string; message: string; position?: number; length?: number };
}

/** Messages the server sends on `/ws`. Each carries `head`: the last seq it covers. */
export type ServerEvent =
  /** `rev`: the highest door-record rev, the cursor for `requestsRev=` on reconnect. */
  | { type: 'hello'; head: number; rev?: number }
  | { type: 'frames/add'; head: number; frames: FrameView[] }
  | { type: 'exchanges/update'; head: number; exchanges: ExchangeSummary[] }
  | { type: 'sessions/update'; head: number; sessions: SessionSummary[] }
  | { type: 'conversations/update'; head: number; conversations: ConversationSummary[] }
  /** Door records created or changed, each at its latest state; `rev` is the door cursor. */
  | { type: 'requests/update'; head: number; rev: number; requests: DoorRecord[] }
  /** The client fell too far behind: reload from the API from `head`. Nothing is dropped silently. */
  | { type: 'resync'; head: number; reason: string }
  /** Retention removed frames: the dashboard says so. */
  | { type: 'retention'; head: number; removedFrames: number; oldestSeq: number }
  /**
   * The capture's state changed (a pause, a resume, a full disk, frames not stored), as
   * `GET /api/capture` tells it; with every mark (`GET /api/marks`) when the marks changed too.
   * Not sent on connect: a dashboard reads both from the API after `hello`.
   */
  | { type: 'capture/update'; status: CaptureStatus; marks?: CaptureMark[] };

export type ExchangeStatusCounts = Partial<Record<ExchangeStatus, number>>;

/** The list form of a frame: the raw text cut at `rawLimit`, with its full size stated. */
export function toFrameView(frame: Frame, rawLimit = FRAME_RAW_LIMIT): FrameView {
  const size = rawLength(frame);
  const truncated = size > rawLimit;
  // A stored large frame's head covers the usual limit; a longer one reads the text back.
  const text = frame.stored && truncated && rawLimit <= frame.stored.head.length ? frame.stored.head : frame.raw;
  const view: FrameView = {
    seq: frame.seq,
    ts: frame.ts,
    sessionKey: frame.sessionKey,
    direction: frame.direction,
    transport: frame.transport,
    kind: frame.kind,
    raw: truncated ? text.slice(0, rawLimit) : text,
    size,
    bytes: bodyBytes(frame),
    truncated,
  };
  if (frame.http) view.http = frame.http;
  return view;
}
