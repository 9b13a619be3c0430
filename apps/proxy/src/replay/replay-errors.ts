/**
 * Replay's own failures, as values: a stable string code, a message for the user, and what the
 * dashboard can do next. `replayStatus` is the one place codes become HTTP statuses.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';

export type ReplayErrorCode =
  | 'bad_request'
  | 'not_a_relay'
  | 'invalid_message'
  | 'not_found'
  | 'not_replayable'
  | 'no_session'
  | 'imported_session'
  | 'upstream_unreachable'
  | 'session_expired'
  | 'fresh_session_failed'
  | 'no_answer'
  | 'input_not_found';

export interface ReplayError {
  code: ReplayErrorCode;
  message: string;
  /** The captured failure, when the request got as far as the wire. */
  exchange?: ExchangeSummary;
  retryWith?: 'fresh';
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ReplayError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: ReplayErrorCode, message: string, extra: Partial<ReplayError> = {}): Result<T> => ({
  ok: false,
  error: { code, message, ...extra },
});

const STATUS: Record<ReplayErrorCode, 400 | 404 | 409 | 502 | 504> = {
  bad_request: 400,
  not_a_relay: 400,
  invalid_message: 400,
  not_found: 404,
  not_replayable: 400,
  no_session: 409,
  imported_session: 409,
  upstream_unreachable: 502,
  session_expired: 409,
  fresh_session_failed: 502,
  no_answer: 504,
  input_not_found: 404,
};

export function replayStatus(code: ReplayErrorCode): 400 | 404 | 409 | 502 | 504 {
  return STATUS[code];
}
