/**
 * Values of the `http.*` filter fields: HTTP methods, paths (query left out) and statuses —
 * exact (`404`), a class (`4xx`), `none` (the client got no status), or a bound (`>399`).
 */
import type { DoorRecord } from '../door/door-record.js';
import type { FilterOp } from './types.js';

export const HTTP_METHODS = ['GET', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PUT', 'PATCH'] as const;

export function pathnameOf(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

export function normalizeStatus(raw: string): string | { error: string } {
  const v = raw.toLowerCase();
  if (/^[1-5]\d\d$/.test(v) || /^[1-5]xx$/.test(v) || v === 'none') return v;
  return { error: 'a status is a number such as 404, a class such as 4xx, or none' };
}

/** [lowest, highest] statuses a normalised value stands for (none: undefined). */
function bounds(value: string): [number, number] | undefined {
  if (value === 'none') return undefined;
  if (value.endsWith('xx')) {
    const base = Number(value[0]) * 100;
    return [base, base + 99];
  }
  const n = Number(value);
  return [n, n];
}

export function describeStatus(op: FilterOp, value: string): string {
  if (value === 'none') return op === ':' ? 'the client got no HTTP status' : 'never (no status is above or below none)';
  if (op === '>') return `its HTTP status is above ${value}`;
  if (op === '<') return `its HTTP status is below ${value}`;
  return value.endsWith('xx') ? `its HTTP status is a ${value}` : `its HTTP status is ${value}`;
}

export function compileStatus(op: FilterOp, value: string): (r: DoorRecord) => boolean {
  const range = bounds(value);
  if (!range) return op === ':' ? (r) => r.status === undefined : () => false;
  const [lo, hi] = range;
  if (op === '>') return (r) => r.status !== undefined && r.status > hi;
  if (op === '<') return (r) => r.status !== undefined && r.status < lo;
  return (r) => r.status !== undefined && r.status >= lo && r.status <= hi;
}
