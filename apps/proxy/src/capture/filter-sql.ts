/**
 * Pushes what it can of a filter down to SQLite, so a filtered page reads index ranges instead of
 * every row. The SQL is a prefilter: it always selects a superset of what the filter matches, and
 * the exact matcher (`matchesExchange`, the same code the dashboard runs) decides each row. When
 * the pushdown is `exact`, the matcher is skipped.
 *
 * Indexed (exchanges_by_status, _by_method, _by_session, _by_target, each with sort_key so the
 * newest-first page is an index walk): `status:`, `status:err`, `method:` and `tool:` (exact, or
 * the part before the first `*` as a range), `session:` (a prefix), `conversation:` (the row's
 * own conversation, else its session's: exchanges_by_conversation, sessions_by_conversation).
 * Narrowed in SQL without an index (rows are still visited, but those that fail are never
 * parsed): `kind:`, `code:`,
 * `latency>`/`<` in plain ms, `has:diag`.
 * Free text is decided in SQL too (a function with the matcher's lower-casing, over method, target
 * and every linked body), but it reads bodies: a full scan of the frames it visits.
 * Full scans through the matcher: `client:` and `rev:` (session fields), `id:`, `dir:`, `size`,
 * `diag:CODE`, and any `!x` or `x | y` with a part that is not exact in SQL.
 * SQL text is built for a query over `exchanges` (unaliased), alone or joined.
 */
import { ERROR_STATUSES, HOST_RULE_BREAKS, type Filter } from '@mcpscope/protocol';

/** The statuses `status:err` stands for (the filter language's definition). */

export interface SqlFilter {
  sql: string;
  params: (string | number)[];
  /** True when the SQL alone decides the filter (no row needs the matcher). */
  exact: boolean;
}


/** Columns are qualified so the SQL also works where frames (which share names) are joined in. */
const X = 'exchanges.';

/** Upper bound for a prefix range: every string starting with `prefix` sorts below it. */
const prefixEnd = (prefix: string) => prefix + '\u{10FFFF}';

/** The SQL prefilter for `filter`, or undefined when no row can be excluded by SQL. */
export function filterToSql(filter: Filter | null): SqlFilter | undefined {
  return pushDown(filter, fieldToSql, (value) => {
    // The matcher lower-cases method, target and the bodies joined by newlines; a needle with a
    // newline could match across two bodies, and an empty one matches rows with no frames left.
    const needle = value.toLowerCase();
    if (needle === '' || needle.includes('\n')) return undefined;
    return {
      // The bodies are the frames the summary lists (frameSeqs), each found by its primary key.
      // A large frame's text is in pieces (migration 8): searched joined, so a match may span two.
      sql: `mcpscope_icontains(${X}method, ?) OR mcpscope_icontains(${X}target, ?) OR EXISTS (SELECT 1 FROM json_each(${X}summary, '$.frameSeqs') tj JOIN frames tf ON tf.seq = tj.value WHERE mcpscope_icontains(CASE WHEN tf.parts = 0 THEN tf.raw ELSE tf.raw || (SELECT group_concat(tp.raw, '' ORDER BY tp.part) FROM frame_parts tp WHERE tp.seq = tf.seq) END, ?))`,
      params: [needle, needle, needle],
      exact: true,
    };
  });
}

/**
 * The combinators of a pushdown, shared by exchanges and door records (door-filter-sql.ts): each
 * gives the SQL of a field term and of free text; `!`, `&` and `|` combine them so the result is
 * always a superset of what the matcher keeps.
 */
export function pushDown(
  filter: Filter | null,
  field: (field: string, op: ':' | '>' | '<', value: string) => SqlFilter | undefined,
  text: (value: string) => SqlFilter | undefined,
): SqlFilter | undefined {
  if (filter === null) return undefined;
  const down = (f: Filter): SqlFilter | undefined => pushDown(f, field, text);
  switch (filter.type) {
    case 'field':
      return field(filter.field, filter.op, filter.value);
    case 'text':
      return text(filter.value);
    case 'not': {
      const inner = down(filter.item);
      // NOT of a superset is not a superset: only exact parts may be negated in SQL.
      // COALESCE: a NULL column (no method, no latency) fails the inner test, so passes its negation.
      return inner?.exact ? { sql: `NOT COALESCE((${inner.sql}), 0)`, params: inner.params, exact: true } : undefined;
    }
    case 'and': {
      const parts = filter.items.map(down);
      const known = parts.filter((p): p is SqlFilter => p !== undefined);
      if (known.length === 0) return undefined;
      return {
        sql: known.map((p) => `(${p.sql})`).join(' AND '),
        params: known.flatMap((p) => p.params),
        exact: known.length === parts.length && known.every((p) => p.exact),
      };
    }
    case 'or': {
      const parts = filter.items.map(down);
      if (parts.some((p) => p === undefined)) return undefined;
      const known = parts as SqlFilter[];
      return { sql: known.map((p) => `(${p.sql})`).join(' OR '), params: known.flatMap((p) => p.params), exact: known.every((p) => p.exact) };
    }
  }
}

function fieldToSql(field: string, op: ':' | '>' | '<', value: string): SqlFilter | undefined {
  if (op !== ':') {
    // Plain milliseconds only; `1.5s` and friends are left to the matcher.
    const n = /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : NaN;
    if (field === 'latency' && Number.isFinite(n)) return { sql: `${X}latency_ms ${op} ?`, params: [n], exact: true };
    return undefined;
  }
  switch (field) {
    case 'status':
      if (value === 'err') {
        // A failed status, or an answer a host rejects (its error finding is in diagnostics).
        const breaks = [...HOST_RULE_BREAKS];
        return {
          sql: `(${X}status IN (${ERROR_STATUSES.map(() => '?').join(', ')}) OR ${X}id IN (SELECT exchange_id FROM diagnostics WHERE severity = 'error' AND code IN (${breaks.map(() => '?').join(', ')})))`,
          params: [...ERROR_STATUSES, ...breaks],
          exact: true,
        };
      }
      return { sql: `${X}status = ?`, params: [value], exact: true };
    case 'method':
      return globToSql('method', value);
    case 'tool': {
      const target = globToSql('target', value);
      return { sql: `${X}method = 'tools/call' AND ${target.sql}`, params: target.params, exact: target.exact };
    }
    case 'session':
      // A prefix match, case-sensitive, like the matcher.
      return { sql: `${X}session_key >= ? AND ${X}session_key < ?`, params: [value, prefixEnd(value)], exact: true };
    case 'conversation':
      // A session-less row carries its own conversation; the others follow their session's.
      return {
        sql: `(${X}conversation_key = ? OR (${X}conversation_key IS NULL AND ${X}session_key IN (SELECT session_key FROM sessions WHERE conversation_key = ?)))`,
        params: [value, value],
        exact: true,
      };
    case 'kind':
      return { sql: `${X}kind = ?`, params: [value], exact: true };
    case 'code': {
      const n = Number(value);
      return Number.isInteger(n) ? { sql: `${X}error_code = ?`, params: [n], exact: true } : undefined;
    }
    case 'has':
      return value === 'diag' ? { sql: `${X}diagnostics > 0`, params: [], exact: true } : undefined;
    default:
      return undefined;
  }
}

/**
 * A glob of the filter language (`*` = any run, case-sensitive): equality without `*`, an index
 * range for the part before the first `*` otherwise (exact when that `*` ends the pattern).
 */
function globToSql(name: string, pattern: string): SqlFilter {
  const column = X + name;
  const star = pattern.indexOf('*');
  if (star === -1) return { sql: `${column} = ?`, params: [pattern], exact: true };
  const prefix = pattern.slice(0, star);
  return { sql: `${column} >= ? AND ${column} < ?`, params: [prefix, prefixEnd(prefix)], exact: star === pattern.length - 1 };
}

/** Whether the filter mentions `field` anywhere (to load only the context it needs). */
export function usesField(filter: Filter | null, field: string): boolean {
  if (filter === null) return false;
  switch (filter.type) {
    case 'field':
      return filter.field === field;
    case 'text':
      return field === 'text';
    case 'not':
      return usesField(filter.item, field);
    case 'and':
    case 'or':
      return filter.items.some((f) => usesField(f, field));
  }
}
