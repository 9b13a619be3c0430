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
  | 'db_too_new';

const STATUS: Record<InspectorErrorCode, number> = {
  bad_param: 400,
  bad_filter: 400,
  not_found: 404,
  db_locked: 409,
  db_too_new: 409,
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
