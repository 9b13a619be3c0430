/**
 * The one place the dashboard API turns failures into answers: an InspectorError becomes its
 * status with `{ error: { code, message, ...details } }`; anything else is a bug, logged, and
 * answered with a 500 that leaks no internals.
 */
import type { ErrorHandler, NotFoundHandler } from 'hono';
import type { ApiError } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';

export const apiErrorHandler: ErrorHandler = (err, c) => {
  if (err instanceof InspectorError) {
    const body: ApiError = { error: { code: err.code, message: err.message, ...err.details } };
    return c.json(body, err.status as 400);
  }
  console.error('mcpscope: dashboard API failure', err);
  return c.json<ApiError>({ error: { code: 'internal', message: 'mcpscope failed to answer this request; see its console.' } }, 500);
};

export const apiNotFound: NotFoundHandler = (c) =>
  c.json<ApiError>({ error: { code: 'not_found', message: `No API route ${c.req.method} ${c.req.path}.` } }, 404);
