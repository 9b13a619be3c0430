/**
 * Door records: every HTTP request the tap receives, on any path and with any method — OAuth
 * discovery and token calls, probes, CORS preflights, 404s, requests the tap's guard refused and
 * requests the upstream never answered — not only the JSON-RPC traffic on the MCP endpoint.
 *
 * A record is evidence, written by the tap with secrets already redacted (header values, secret
 * query keys, OAuth body fields); nothing here ever sees a raw token. A record is created when the
 * request arrives and updated while it is answered (`end` says whether that is over), so a
 * long-lived SSE stream is visible from its first byte. `rev` grows on every write: a dashboard
 * that resumes from a `rev` gets every record written since, each at its latest state.
 */

/** Who produced the answer the client got. */
export type DoorAnswer =
  /** The upstream answered (any status, 404s included): the tap forwarded it. */
  | 'upstream'
  /** The tap's Host/Origin guard refused the request (403) without forwarding it. */
  | 'refused'
  /** The tap answered a CORS preflight itself. */
  | 'preflight'
  /** The upstream could not be reached or failed before answering: the tap answered 502. */
  | 'upstream-failed'
  /** The tap answered itself for another reason (stdio mode: a path other than the MCP endpoint). */
  | 'tap';

/** How the exchange ended, as far as the tap could tell. */
export type DoorEnd =
  /** Still streaming (an SSE stream, a slow body). */
  | 'open'
  | 'complete'
  /** The client closed the connection before the answer was complete. */
  | 'client-gone'
  /** The upstream's body broke off midway. */
  | 'upstream-cut';

/** A body as recorded: text (UTF-8, invalid bytes replaced) cut at DOOR_BODY_LIMIT. */
export interface DoorBody {
  text: string;
  /** Bytes of the whole body as it passed the tap. */
  size: number;
  truncated: boolean;
}

/** The client's end of the TCP connection the request came on. */
export interface DoorPeer {
  /** The socket's remote address (a tunnel daemon's, when the request came through one). */
  address: string;
  port?: number;
  /** Serial of the TCP connection at the tap: requests with the same serial shared one socket. */
  connection: number;
}

export interface DoorRecord {
  /** Arrival order, from 1. */
  id: number;
  /** Grows on every write of any record (see the module header). */
  rev: number;
  /** Arrival, epoch milliseconds. */
  ts: number;
  method: string;
  /** Path and query as received, secret query values redacted. */
  path: string;
  /** The Host the client addressed (what it thinks the server's origin is). */
  host?: string;
  /** The status the client got; absent when it got none (it left, or the answer never began). */
  status?: number;
  answer: DoorAnswer;
  end: DoorEnd;
  /** One sentence on what went wrong: the guard's reason, the upstream's error code. */
  note?: string;
  /** Lower-cased names, secrets redacted, repeated headers joined by ", ". */
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /**
   * Set when the tap added its own CORS headers to the upstream's answer (a browser client sent
   * Origin): `responseHeaders` then show what the client got through the tap, and this what the
   * upstream itself sent, which is what a host's browser gets without the tap.
   */
  upstreamCors?: { allowOrigin?: string };
  /** Milliseconds after `ts`: when the response head went out, and when the answer ended. */
  firstByteMs?: number;
  endMs?: number;
  /** Body bytes received from the client and sent to it. */
  requestBytes: number;
  responseBytes: number;
  peer: DoorPeer;
  userAgent?: string;
  /** Recorded for OAuth endpoints and metadata documents only (MCP bodies are frames). */
  requestBody?: DoorBody;
  responseBody?: DoorBody;
  /** The request was on the MCP endpoint (or a legacy message endpoint): its bodies are frames. */
  mcp?: true;
  /** The capture's session key of the frames it carried. */
  sessionKey?: string;
  /** `Mcp-Session-Id` sent by the client or minted in the answer (a real session, not a guess). */
  mcpSessionId?: string;
  /** Seqs of the first frames that rode on the request (capped; `frameCount` has them all). */
  frameSeqs?: number[];
  frameCount?: number;
  /**
   * On a request the guard refused: every refusal of the same Host and Origin, this one first. The
   * door keeps one record per pair and counts the rest on it, so a page that sends thousands of
   * refused requests costs one record, not thousands.
   */
  refusals?: DoorRefusals;
}

/** The refused requests one record stands for (see `DoorRecord.refusals`). */
export interface DoorRefusals {
  /** Every refusal of this Host and Origin, exact. */
  count: number;
  /** The latest one's arrival, epoch milliseconds (the first is the record's `ts`). */
  lastTs: number;
  /** The latest ones, oldest first, at most DOOR_REFUSAL_SAMPLES. */
  samples: DoorRefusalSample[];
  /** The Origin the refused requests sent (absent: none). */
  origin?: string;
  /**
   * The Host itself was refused (not only the Origin): the tap does not take that name. `fix` is
   * the flag that would let it in (`--public-url https://HOST` on a loopback tap); the dashboard
   * may also accept the Host for the run.
   */
  refusedHost?: { host: string; fix: string };
}

/** One refused request, as much as tells it apart from the others of its pair. */
export interface DoorRefusalSample {
  ts: number;
  method: string;
  /** Path and query, secret values redacted, cut at DOOR_REFUSAL_PATH_CHARS characters. */
  path: string;
  /** The socket's remote address. */
  address: string;
}

/** A record of refused requests keeps this many of the latest. */
export const DOOR_REFUSAL_SAMPLES = 20;
/** A refusal sample's path is cut to this many characters. */
export const DOOR_REFUSAL_PATH_CHARS = 512;

/** Bodies above this many bytes are cut (OAuth documents are a few hundred bytes). */
export const DOOR_BODY_LIMIT = 64 * 1024;

/** A record lists at most this many of its frames (an SSE stream may carry thousands). */
export const DOOR_FRAME_SEQ_LIMIT = 32;

/** The path without its query. */
export function doorPathname(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/** The query parameters of the recorded path (values already redacted where secret). */
export function doorQuery(path: string): URLSearchParams {
  const q = path.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : path.slice(q + 1));
}

/** A request header (lower-case name). */
export function requestHeader(record: Pick<DoorRecord, 'requestHeaders'>, name: string): string | undefined {
  return record.requestHeaders[name];
}

/** A response header (lower-case name). */
export function responseHeader(record: Pick<DoorRecord, 'responseHeaders'>, name: string): string | undefined {
  return record.responseHeaders[name];
}

/**
 * The address the request really came from: the first `X-Forwarded-For` hop when a tunnel or a
 * reverse proxy put one in (cloudflared and ngrok do), else the socket's. Used for grouping only:
 * a client can forge the header, so it is never trusted for access.
 */
export function clientAddress(record: Pick<DoorRecord, 'requestHeaders' | 'peer'>): string {
  const forwarded = record.requestHeaders['x-forwarded-for'];
  const first = forwarded?.split(',')[0]?.trim();
  return first || record.peer.address;
}

/**
 * The URL the client believes it requested: the scheme it used (from `X-Forwarded-Proto` when a
 * tunnel terminates TLS), the Host it addressed, and the path. Undefined without a Host.
 */
export function requestedUrl(record: Pick<DoorRecord, 'requestHeaders' | 'host' | 'path'>): string | undefined {
  if (!record.host) return undefined;
  const proto = (record.requestHeaders['x-forwarded-proto'] ?? 'http').split(',')[0]!.trim().toLowerCase();
  return `${proto === 'https' ? 'https' : 'http'}://${record.host}${doorPathname(record.path)}`;
}

/** The origin the client addressed (`https://abc.trycloudflare.com`). */
export function requestedOrigin(record: Pick<DoorRecord, 'requestHeaders' | 'host' | 'path'>): string | undefined {
  const url = requestedUrl(record);
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
