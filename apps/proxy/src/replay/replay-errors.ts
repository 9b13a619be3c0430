/**
 * Replay's own failures, as values: a stable string code, a message for the user, and what the
 * dashboard can do next. Codes and their HTTP statuses come from core/errors.ts, the one table.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';
import type { ErrorCode } from '../core/errors.js';

/** Replay fails with codes from mcpscope's one table (core/errors.ts). */
export type ReplayErrorCode = ErrorCode;

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
