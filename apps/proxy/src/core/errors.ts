/**
 * mcpscope's own failures (as opposed to captured wire errors, which are data): a string code, a
 * message for the user, and the HTTP status the API answers with. The dashboard API turns them
 * into `{ error: { code, message } }` in one place (its onError); the CLI prints the message.
 * Callers branch on `code`, never on message text.
 */

export type InspectorErrorCode =
  /** A query parameter is missing, malformed or out of range. */
  | 'bad_param'
  /** The `filter` parameter does not parse; the message carries the position. */
  | 'bad_filter'
  | 'not_found'
  /** Another process holds the capture file. */
  | 'db_locked'
  /** The capture file was written by a newer mcpscope. */
  | 'db_too_new'
  /** A `redact` entry is not a key or a valid JSON path. */
  | 'bad_redact'
  /** An import is neither mcpscope JSONL nor HAR, or its header/document is broken. */
  | 'import_unreadable'
  /** An import held nothing to import (the report says why). */
  | 'import_empty'
  | 'import_too_large'
  /** This dashboard has no capture pipeline to import into. */
  | 'import_unavailable'
  /** A demo-only action while mcpscope proxies a real server. */
  | 'demo_off'
  /** The demo's sample call failed on its way through the tap. */
  | 'sample_call_failed'
  /** The exchange is not a tools/call of a tool that declares a widget. */
  | 'not_a_widget'
  /** A host would refuse this call from the widget (visibility, widgetAccessible). */
  | 'widget_call_refused'
  /** Nothing can be sent from here (`mcpscope open`: no upstream). */
  | 'no_upstream'
  /** The upstream could not be reached, or failed, for a widget's side request. */
  | 'widget_upstream_failed';

const STATUS: Record<InspectorErrorCode, number> = {
  bad_param: 400,
  bad_filter: 400,
  not_found: 404,
  db_locked: 409,
  db_too_new: 409,
  bad_redact: 400,
  import_unreadable: 422,
  import_empty: 422,
  import_too_large: 413,
  import_unavailable: 409,
  demo_off: 409,
  sample_call_failed: 502,
  not_a_widget: 422,
  widget_call_refused: 403,
  no_upstream: 409,
  widget_upstream_failed: 502,
};

export class InspectorError extends Error {
  readonly status: number;

  constructor(
    readonly code: InspectorErrorCode,
    message: string,
    /** Extra fields for the API answer (e.g. a filter error's position). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'InspectorError';
    this.status = STATUS[code];
  }
}
