/**
 * Pushes a filter down to SQLite for door records (table door_requests), as filter-sql.ts does for
 * exchanges: the SQL is a prefilter that always selects a superset of what the door matcher
 * (`compileDoorFilter`, the code the dashboard runs) keeps; when `exact`, the matcher is skipped.
 *
 * Exact in SQL (tested on columns while walking ids; only `rev` has an index, see migration 5):
 * `http.method:`, `http.status:` (exact, class, none, bounds), `http.path:` (equal, or the part
 * before the first `*` as a range), `kind:`, `session:`, `client:`,
 * `latency>`/`<` in plain ms, `size>`/`<` in plain bytes, and every field that never matches a
 * door record (as false). Free text is left to the matcher (it reads bodies and the query string).
 */
import type { Filter, FilterOp } from '@mcpscope/protocol';
import { pushDown, type SqlFilter } from './filter-sql.js';
import { doorKeyIs, storedKeyInRange } from './session-keys.js';

const D = 'door_requests.';
const prefixEnd = (prefix: string) => prefix + '\u{10FFFF}';
const FALSE: SqlFilter = { sql: '0', params: [], exact: true };
const TRUE: SqlFilter = { sql: '1', params: [], exact: true };

export function doorFilterToSql(filter: Filter | null): SqlFilter | undefined {
  // Free text reads bodies and the query string: the matcher decides it.
  return pushDown(filter, fieldToSql, () => undefined);
}

function fieldToSql(field: string, op: FilterOp, value: string): SqlFilter | undefined {
  switch (field) {
    case 'http.method':
      return { sql: `upper(${D}method) = ?`, params: [value], exact: true };
    case 'http.path': {
      const star = value.indexOf('*');
      if (star === -1) return { sql: `${D}path = ?`, params: [value], exact: true };
      const prefix = value.slice(0, star);
      return { sql: `${D}path >= ? AND ${D}path < ?`, params: [prefix, prefixEnd(prefix)], exact: star === value.length - 1 };
    }
    case 'http.status':
      return statusToSql(op, value);
    case 'kind':
      return value === 'http' ? TRUE : value === 'probe' ? { sql: `${D}probe = 1`, params: [], exact: true } : FALSE;
    case 'session':
      if (op === '=') return { ...doorKeyIs(`${D}session_key`, value), exact: true };
      return { ...storedKeyInRange(`${D}session_key`, value, prefixEnd(value)), exact: true };
    case 'client':
      return { sql: `mcpscope_icontains(COALESCE(${D}user_agent, ''), ?)`, params: [value.toLowerCase()], exact: true };
    case 'latency': {
      const n = /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : NaN;
      return Number.isFinite(n) ? { sql: `${D}end_ms ${op} ?`, params: [n], exact: true } : undefined;
    }
    case 'size': {
      const n = /^\d+$/.test(value) ? Number(value) : NaN;
      return Number.isFinite(n) ? { sql: `${D}bytes ${op} ?`, params: [n], exact: true } : undefined;
    }
    default:
      // Fields about JSON-RPC exchanges never match a door record.
      return FALSE;
  }
}

function statusToSql(op: FilterOp, value: string): SqlFilter {
  if (value === 'none') return op === ':' ? { sql: `${D}status IS NULL`, params: [], exact: true } : FALSE;
  const [lo, hi] = value.endsWith('xx') ? [Number(value[0]) * 100, Number(value[0]) * 100 + 99] : [Number(value), Number(value)];
  if (op === '>') return { sql: `${D}status > ?`, params: [hi], exact: true };
  if (op === '<') return { sql: `${D}status < ?`, params: [lo], exact: true };
  return { sql: `${D}status BETWEEN ? AND ?`, params: [lo, hi], exact: true };
}
