/**
 * Query parameters of the dashboard API, read strictly: a value that is present but malformed is
 * a 400 that names the parameter, never silently replaced by a default.
 */
import type { Context } from 'hono';
import { parseFilter, type Filter } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';

export interface IntRange {
  fallback: number;
  min: number;
  max: number;
}

/** An integer query parameter within [min, max]; `fallback` when absent or empty. */
export function intParam(c: Context, name: string, range: IntRange): number {
  const text = c.req.query(name);
  if (text === undefined || text === '') return range.fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < range.min || n > range.max) {
    throw new InspectorError('bad_param', `"${name}" must be an integer from ${range.min} to ${range.max} (got "${text}").`);
  }
  return n;
}

/** A finite number query parameter (sort keys such as `before=12.0003`); undefined when absent. */
export function numberParam(c: Context, name: string): number | undefined {
  const text = c.req.query(name);
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new InspectorError('bad_param', `"${name}" must be a number (got "${text}").`);
  return n;
}

/** The `filter` parameter parsed with the filter language; null when absent or empty. */
export function filterParam(c: Context): Filter | null {
  const text = c.req.query('filter');
  if (text === undefined) return null;
  const parsed = parseFilter(text);
  if (!parsed.ok) {
    const { message, position, length } = parsed.error;
    throw new InspectorError('bad_filter', `filter: ${message} (at ${position})`, { position, length });
  }
  return parsed.filter;
}
