/**
 * mcpscope's own failures (as opposed to captured wire errors, which are data): a string code, a
 * message for the user, and the HTTP status the API answers with. One table of codes for every
 * part of mcpscope (the API, replay, exports, the capture file), so a code means one thing and
 * maps to one status everywhere. The API turns them into `{ error: { code, message } }` in one
 * place (its onError); the CLI prints the message. Callers branch on `code`, never on message text.
 */

const STATUS = {
  /** A query parameter is missing, malformed or out of range. */
  bad_param: 400,
  /** A request body is not what the route takes. */
  bad_request: 400,
  /** The `filter` parameter does not parse; the message carries the position. */
  bad_filter: 400,
  /** A `redact` entry is not a key or a valid JSON path. */
  bad_redact: 400,
  not_found: 404,
  /** Another process holds the capture file. */
  db_locked: 409,
  /** The capture file was written by a newer mcpscope. */
  db_too_new: 409,
  /** The capture file was written by an older mcpscope and is opened read-only (rebuild upgrades it). */
  db_too_old: 409,
  /** The capture file (or its directory) cannot be created or written: read-only, no permission, a file in the way. */
  db_unwritable: 500,
  /** A secret file beside the capture (token, fingerprint key) is a symlink, another user's, or readable by others. */
  secret_file_refused: 409,
  /** An import is neither mcpscope JSONL nor HAR, or its header/document is broken. */
  import_unreadable: 422,
  /** An import held nothing to import (the report says why). */
  import_empty: 422,
  import_too_large: 413,
  /** `mcpscope open`: the dashboard shows a file read-only; what would write to it or send from it is refused. */
  read_only: 409,
  /** Capture is paused (a full disk, a read-only file system): nothing can be stored now. */
  capture_paused: 503,
  /** A demo-only action while mcpscope proxies a real server. */
  demo_off: 409,
  /** The demo's sample call failed on its way through the tap. */
  sample_call_failed: 502,
  /** Replay: the destination is not the configured upstream (mcpscope is not an open relay). */
  not_a_relay: 400,
  /** Replay: the edited message is not a JSON-RPC message mcpscope can send. */
  invalid_message: 400,
  /** Replay: only client→server messages can be replayed. */
  not_replayable: 400,
  /** Replay: a session replay without a session. */
  no_session: 409,
  /** Replay, widget preview: the session was imported from a file; no live server knows it, nothing is sent for it. */
  imported_session: 409,
  upstream_unreachable: 502,
  /** Replay: the upstream no longer knows the session. */
  session_expired: 409,
  fresh_session_failed: 502,
  /** Replay: sent, but no answer came (timeout, or the dashboard stopped waiting). */
  no_answer: 504,
  /** Drive: the arguments break the tool's (or prompt's) schema; nothing was sent (send it anyway to see what the server does). */
  arguments_invalid: 422,
  /** Replay: the server request to answer is gone (answered, declined or expired). */
  input_not_found: 404,
  /** No SQLite driver loads on this Node (capture/sqlite.ts), or MCPSCOPE_SQLITE asks for one that does not. */
  sqlite_unavailable: 500,
  /** Widget preview: the exchange is not a tools/call of a tool that declares a widget. */
  not_a_widget: 422,
  /** Widget preview: a host would refuse this call from the widget (visibility, widgetAccessible). */
  widget_call_refused: 403,
  /** Widget preview: the user has not allowed this widget to call this tool on the server (POST …/consent from the dashboard). */
  widget_consent_needed: 403,
  /** Widget preview: nothing can be sent from here (`mcpscope open`: no upstream). */
  no_upstream: 409,
  /** Widget preview: the upstream could not be reached, or failed, for a widget's side request. */
  widget_upstream_failed: 502,
  /** Widget preview: a local widget file the user named cannot be served (not absolute, not .html, not a regular file, too large, not UTF-8). */
  widget_file_refused: 422,
  /** `--tunnel`: the tunnel program is not installed, exited, or printed no public URL in time. */
  tunnel_failed: 502,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof STATUS;

/** The HTTP status the API answers a code with. */
export function errorStatus(code: ErrorCode): number {
  return STATUS[code];
}

export class InspectorError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields for the API answer (e.g. a filter error's position). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'InspectorError';
    this.status = STATUS[code];
  }
}
