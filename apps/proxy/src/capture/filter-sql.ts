/**
 * Pushes a filter down to SQLite, so a filtered page reads index ranges instead of every row, and
 * the dashboard's window (capture-window.ts) can count a filtered list without a scan. Every field
 * of the language is decided in SQL (`exact`), with the matcher's semantics (`matchesExchange`,
 * the same code the dashboard runs); the only part left to the matcher is free text that is
 * empty or spans a newline. Where a part is not exact the SQL is a prefilter: it selects a
 * superset of what the filter matches, and the matcher decides each row.
 *
 * Indexed (exchanges_by_status, _by_method, _by_session, _by_target, each with sort_key so the
 * newest-first page is an index walk): `status:`, `status:err`, `method:` and `tool:` (the part
 * before the first `*` as a range, the rest as a GLOB), `session:` (a prefix; `session=`: the key), `conversation:`
 * (the row's own conversation, else its session's: exchanges_by_conversation,
 * sessions_by_conversation). `client:` and `rev:` select the sessions first (one pass over the
 * sessions table, far smaller than the exchanges) and keep rows of those sessions.
 * Narrowed in SQL without an index (rows are still visited, but never parsed by the matcher):
 * `kind:`, `code:`, `latency`, `size`, `has:diag`, `id:` and `dir:` (from the stored summary),
 * `diag:CODE` (the diagnostics of the row and of its frames as a whole, as diagnosticsFor reads).
 * Free text is decided in SQL too (text-sql.ts: the matcher's lower-casing, over method, target
 * and every linked body), but it reads bodies: a full scan of the frames it visits (scan-sql.ts
 * reads them a range of frames at a time, for the window's scans).
 * SQL text is built for a query over `exchanges` (unaliased), alone or joined.
 */
import { ERROR_STATUSES, HOST_RULE_BREAKS, parseDuration, parseSize, type Filter, type FilterOp } from '@mcpscope/protocol';
import { containsSql, type TextSql } from './text-sql.js';
import { summaryPathSql } from './templates.js';
import { storedKeyInRange, storedKeyIs, storedKeyOfSessions } from './session-keys.js';

export interface SqlFilter<P = string | number> {
  sql: string;
  params: P[];
  /** True when the SQL alone decides the filter (no row needs the matcher). */
  exact: boolean;
}

/** Columns are qualified so the SQL also works where frames (which share names) are joined in. */
const X = 'exchanges.';

/** Upper bound for a prefix range: every string starting with `prefix` sorts below it. */
const prefixEnd = (prefix: string) => prefix + '\u{10FFFF}';

const NEVER: SqlFilter = { sql: '0', params: [], exact: true };

/**
 * What the capture's frames table holds beside each text, which the SQL of free text may read
 * (CaptureReader.frameColumns): `likeDecides`, whether the file's frames carry the `like_decides`
 * column (text-sql.ts).
 */
export interface FrameColumns {
  likeDecides: boolean;
}

/** The SQL prefilter for `filter`, or undefined when no row can be excluded by SQL. */
export function filterToSql(filter: Filter | null, frames: FrameColumns): SqlFilter | undefined {
  return pushDown(filter, fieldToSql, (value) => {
    const needle = textNeedle(value);
    if (needle === undefined) return undefined;
    return anyOf([containsSql(`${X}method`, needle), containsSql(`${X}target`, needle), rowBodiesContain(needle, frames)]);
  });
}

/**
 * The needle free text looks for (the matcher lower-cases it and the text it searches), or
 * undefined when SQL cannot decide it: the matcher joins the bodies with newlines, so a needle with
 * a newline could match across two bodies, and an empty one matches rows with no frames left.
 */
export function textNeedle(value: string): string | undefined {
  const needle = value.toLowerCase();
  return needle === '' || needle.includes('\n') ? undefined : needle;
}

/** Terms joined by OR, exact. */
export function anyOf<P>(terms: readonly { sql: string; params: readonly P[] }[]): SqlFilter<P> {
  return { sql: terms.map((t) => t.sql).join(' OR '), params: terms.flatMap((t) => t.params), exact: true };
}

/**
 * Whether a frame's text (`tf`, a row of frames) holds `needle`. A large frame's text is in pieces
 * (migration 8): searched joined, so a match may span two.
 */
export function frameContains(needle: string, frames: FrameColumns): TextSql {
  const whole = containsSql('tf.raw', needle, frames.likeDecides ? 'tf.like_decides' : undefined);
  const joined = `tf.raw || (SELECT group_concat(tp.raw, '' ORDER BY tp.part) FROM frame_parts tp WHERE tp.seq = tf.seq)`;
  // Not a CASE: SQLite evaluates a CASE holding a subquery far slower per row than AND/OR.
  return { sql: `((tf.parts = 0 AND ${whole.sql}) OR (tf.parts > 0 AND mcpscope_icontains(${joined}, ?)))`, params: [...whole.params, needle] };
}

/** Whether one of the row's bodies (the frames its summary lists, each by its primary key) holds `needle`. */
export function rowBodiesContain(needle: string, frames: FrameColumns): TextSql {
  const frame = frameContains(needle, frames);
  return { sql: `EXISTS (SELECT 1 FROM json_each(${X}summary, ${summaryPathSql(`${X}summary`, 'frameSeqs')}) tj JOIN frames tf ON tf.seq = tj.value WHERE ${frame.sql})`, params: frame.params };
}

/**
 * The combinators of a pushdown, shared by exchanges and door records (door-filter-sql.ts): each
 * gives the SQL of a field term and of free text; `!`, `&` and `|` combine them so the result is
 * always a superset of what the matcher keeps.
 */
export function pushDown<P>(
  filter: Filter | null,
  field: (field: string, op: FilterOp, value: string) => SqlFilter<P> | undefined,
  text: (value: string) => SqlFilter<P> | undefined,
): SqlFilter<P> | undefined {
  if (filter === null) return undefined;
  const down = (f: Filter): SqlFilter<P> | undefined => pushDown(f, field, text);
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
      const known = parts.filter((p): p is SqlFilter<P> => p !== undefined);
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
      const known = parts as SqlFilter<P>[];
      return { sql: known.map((p) => `(${p.sql})`).join(' OR '), params: known.flatMap((p) => p.params), exact: known.every((p) => p.exact) };
    }
  }
}

export function fieldToSql(field: string, op: FilterOp, value: string): SqlFilter | undefined {
  switch (field) {
    case 'latency': {
      // A row not answered has no latency: NULL, which no bound keeps (as the matcher's undefined).
      const ms = parseDuration(value);
      return ms === undefined || op === ':' ? undefined : { sql: `${X}latency_ms ${op} ?`, params: [ms], exact: true };
    }
    case 'size': {
      const bytes = parseSize(value);
      return bytes === undefined || op === ':' ? undefined : { sql: `${X}size ${op} ?`, params: [bytes], exact: true };
    }
    case 'http.method':
    case 'http.path':
    case 'http.status':
      // About HTTP requests at the door: no exchange has them.
      return NEVER;
  }
  // `session=` is the whole key; no other field takes `=`.
  if (op === '=') return field === 'session' ? { ...storedKeyIs(`${X}session_key`, value), exact: true } : undefined;
  if (op !== ':') return undefined;
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
      return globToSql(`${X}method`, value);
    case 'tool': {
      const target = globToSql(`${X}target`, value);
      return { sql: `${X}method = 'tools/call' AND ${target.sql}`, params: target.params, exact: true };
    }
    case 'session':
      // A prefix match, case-sensitive, like the matcher.
      return { ...storedKeyInRange(`${X}session_key`, value, prefixEnd(value)), exact: true };
    case 'conversation':
      // A session-less row carries its own conversation; the others follow their session's.
      return {
        sql: `(${X}conversation_key = ? OR (${X}conversation_key IS NULL AND ${storedKeyOfSessions(`${X}session_key`, 'fs.conversation_key = ?')}))`,
        params: [value, value, value],
        exact: true,
      };
    case 'client':
      return sessionsWhere(clientSql(value));
    case 'rev': {
      const revision = globToSql(textAt('fs.summary', '$.protocolVersion'), value);
      return sessionsWhere(revision);
    }
    case 'kind':
      return { sql: `${X}kind = ?`, params: [value], exact: true };
    case 'code': {
      const n = Number(value);
      return Number.isInteger(n) ? { sql: `${X}error_code = ?`, params: [n], exact: true } : undefined;
    }
    case 'has':
      return value === 'diag' ? { sql: `${X}diagnostics > 0`, params: [], exact: true } : undefined;
    case 'id':
      return idToSql(value);
    case 'dir': {
      // A request or its answer goes by who asked; a lone notification or junk by who sent it.
      const requester = value === 'c2s' ? 'client' : 'server';
      return { sql: `(${X}requester = ? OR (${X}requester = 'none' AND json_extract(${X}summary, ${summaryPathSql(`${X}summary`, 'direction')}) = ?))`, params: [requester, value], exact: true };
    }
    case 'diag': {
      // The row's findings and those about one of its frames as a whole (CaptureReader.diagnosticsFor).
      const code = globToSql('fd.code', value);
      return {
        sql: `EXISTS (SELECT 1 FROM diagnostics fd WHERE (fd.exchange_id = ${X}id OR (fd.exchange_id IS NULL AND fd.frame_seq IN (SELECT fj.value FROM json_each(${X}summary, ${summaryPathSql(`${X}summary`, 'frameSeqs')}) fj))) AND ${code.sql})`,
        params: code.params,
        exact: true,
      };
    }
    default:
      return undefined;
  }
}

/** Rows of the sessions whose summary (`fs.summary`) passes `where`; a row with no stored session passes nothing. */
function sessionsWhere(where: SqlFilter): SqlFilter {
  return { sql: storedKeyOfSessions(`${X}session_key`, where.sql), params: [...where.params, ...where.params], exact: true };
}

/** A JSON string at `path` of `column`, NULL when it is absent or not a string. */
function textAt(column: string, path: string): string {
  return `(CASE WHEN json_type(${column}, '${path}') = 'text' THEN json_extract(${column}, '${path}') END)`;
}

/**
 * `client:` as the matcher reads it: part of any of the session's names, any case. The label and
 * the User-Agent count when not empty, clientInfo's name and title whenever they are strings.
 */
function clientSql(value: string): SqlFilter {
  const needle = value.toLowerCase();
  const named = (path: string, skipEmpty: boolean) => {
    const text = textAt('fs.summary', path);
    return skipEmpty ? `mcpscope_icontains(NULLIF(${text}, ''), ?)` : `mcpscope_icontains(${text}, ?)`;
  };
  const parts = [named('$.clientLabel', true), named('$.clientInfo.name', false), named('$.clientInfo.title', false), named('$.userAgent', true)];
  return { sql: parts.join(' OR '), params: parts.map(() => needle), exact: true };
}

/** `id:` keeps the JSON type: `id:7` is the number (any JSON spelling of it), `id:"7"` the string. */
function idToSql(value: string): SqlFilter {
  const id = JSON.parse(value) as string | number;
  const type = typeof id === 'string' ? `= 'text'` : `IN ('integer', 'real')`;
  const path = summaryPathSql(`${X}summary`, 'rpcId');
  return { sql: `(json_type(${X}summary, ${path}) ${type} AND json_extract(${X}summary, ${path}) = ?)`, params: [id], exact: true };
}

/**
 * A glob of the filter language (`*` = any run, everything else literal, case-sensitive) over a
 * column: equality without `*`; else a range on the part before the first `*` (an index can walk
 * it), and a GLOB for the rest unless that `*` ends the pattern. GLOB's own `?` and `[` are
 * escaped as one-character classes, so only `*` is a wildcard.
 */
function globToSql(column: string, pattern: string): SqlFilter {
  const star = pattern.indexOf('*');
  if (star === -1) return { sql: `${column} = ?`, params: [pattern], exact: true };
  const prefix = pattern.slice(0, star);
  const range = { sql: `${column} >= ? AND ${column} < ?`, params: [prefix, prefixEnd(prefix)] };
  if (star === pattern.length - 1) return { ...range, exact: true };
  const glob = pattern.replace(/[?[]/g, (c) => `[${c}]`);
  return { sql: `${range.sql} AND ${column} GLOB ?`, params: [...range.params, glob], exact: true };
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

/** True when every field term of `filter` is one of `fields` (free text counts as `text`; no filter: true). */
export function onlyFields(filter: Filter | null, fields: readonly string[]): boolean {
  if (filter === null) return true;
  switch (filter.type) {
    case 'field':
      return fields.includes(filter.field);
    case 'text':
      return fields.includes('text');
    case 'not':
      return onlyFields(filter.item, fields);
    case 'and':
    case 'or':
      return filter.items.every((f) => onlyFields(f, fields));
  }
}
