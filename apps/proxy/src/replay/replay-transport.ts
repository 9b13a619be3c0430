/**
 * How a replay reaches the server, whatever carries it. The HTTP transport sends one POST per
 * message; a stdio bridge can satisfy the same interface by writing one line to the child's stdin
 * and reading its stdout until the answer (it ignores `headers` and `path`).
 */
import type { Direction, FrameKind, HttpInfo, RequestMessage } from '@mcpscope/protocol';
import type { WireContext } from '../upstream/wire-headers.js';

/** Where a replay's frames go and how they travel. */
export interface Channel {
  sessionKey: string;
  path: string;
  wire: WireContext;
}

export interface OutgoingMessage {
  /** The exact text to send. */
  body: string;
  /** The JSON-RPC id of a request (undefined for notifications and responses). */
  id?: string | number;
  headers: Record<string, string>;
  /** Path (and query) on the upstream; only the configured upstream's origin is ever used. */
  path: string;
  signal: AbortSignal;
}

/** A frame as the transport saw it; the replay service stamps time, session and `replay`. */
export interface WireFrame {
  /** When the bytes left or arrived; the sink's clock when absent. */
  ts?: number;
  direction: Direction;
  kind: FrameKind;
  raw: string;
  http?: HttpInfo;
}

export interface ReplaySink {
  frame(frame: WireFrame): void;
  /** The server asked the client something (sampling, elicitation, roots) while answering. */
  serverRequest(request: RequestMessage): void;
}

export type TransportFailure =
  | { kind: 'unreachable'; message: string }
  /** The upstream no longer knows the session (legacy-era 404). */
  | { kind: 'session_expired'; message: string };

export interface TransportAnswer {
  status?: number;
  /** `Mcp-Session-Id` the server minted (on `initialize`). */
  sessionId?: string;
  /** The JSON-RPC answer to the request, when one arrived. */
  answer?: unknown;
  failure?: TransportFailure;
}

export interface ReplayTransport {
  send(message: OutgoingMessage, sink: ReplaySink): Promise<TransportAnswer>;
  /** Ends a session mcpscope opened itself (HTTP: DELETE with its Mcp-Session-Id). */
  endSession?(path: string, headers: Record<string, string>): Promise<void>;
  /**
   * Listens for what the server sends outside any request's answer (HTTP: the session's GET event
   * stream, where a server asks `roots/list` or sends list-changed notifications), until `signal`
   * aborts or the server ends the stream. Resolves as soon as the server has answered the GET:
   * true once the stream is open (what comes on it goes on reaching `sink`), false when the
   * server offers no such stream.
   */
  listen?(path: string, headers: Record<string, string>, sink: ReplaySink, signal: AbortSignal): Promise<boolean>;
}
