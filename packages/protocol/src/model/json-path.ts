/**
 * JSON paths, one spelling for all of mcpscope: `$`, `$.params.arguments.budget`,
 * `$.content[0].text`, `$["odd key"]`. Diagnostics write them, the dashboard's tree and schema
 * check find a node by string equality with them, and `--redact` reads them (with `*` / `[*]` for
 * any one key or index, and `['odd key']` quoting accepted on input).
 *
 * `verify --ignore` reads patterns (`parsePathPattern`): the same spelling plus `..` for any
 * depth (`$..timestamp`), matched step by step against a concrete path while a value is walked.
 */

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** The path of `parent`'s member `key`: an array index when `key` is a number. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENT.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** True when `path` is `ancestor` or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  if (!path.startsWith(ancestor)) return false;
  const next = path[ancestor.length];
  return next === undefined || next === '.' || next === '[';
}

/**
 * `/params/arguments/0` → `.params.arguments[0]` (relative: prefix it with `$` or a base). A JSON
 * pointer does not say whether `0` is an index or a key; validators point into arrays with it.
 */
export function pathFromPointer(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => {
      const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      return childPath('', /^\d+$/.test(seg) ? Number(seg) : seg);
    })
    .join('');
}

/** Joins a base and a path (`$` + `$.params.x` → `$.params.x`, `$[1]` + `$.id` → `$[1].id`). */
export function joinPath(base: string, path: string): string {
  return base + path.replace(/^\$/, '');
}

/** One step of a parsed path; `*` matches any key or index. The first segment is `$`. */
export type PathSegment = string;

export type JsonPathResult = { ok: true; path: PathSegment[] } | { ok: false; message: string };

/** Reads a path as the user types it (`--redact`), with a message naming what is wrong. */
export function parseJsonPath(text: string): JsonPathResult {
  const fail = (message: string): JsonPathResult => ({ ok: false, message });
  if (!text.startsWith('$')) return fail(`a JSON path starts with "$" (got "${text}")`);
  const segments: PathSegment[] = ['$'];
  let i = 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '.') {
      const m = /^[^.[\]]+/.exec(text.slice(i + 1));
      if (!m) return fail(`expected a key after "." at position ${i + 1} of "${text}"`);
      segments.push(m[0]);
      i += 1 + m[0].length;
    } else if (ch === '[') {
      const close = text.indexOf(']', i);
      if (close === -1) return fail(`unclosed "[" at position ${i} of "${text}"`);
      let inner = text.slice(i + 1, close).trim();
      if (/^(['"]).*\1$/.test(inner)) inner = inner.slice(1, -1);
      if (inner === '') return fail(`empty "[]" at position ${i} of "${text}"`);
      segments.push(inner);
      i = close + 1;
    } else {
      return fail(`unexpected "${ch}" at position ${i} of "${text}"`);
    }
  }
  return { ok: true, path: segments };
}

export function matchesPath(pattern: readonly PathSegment[], path: readonly string[]): boolean {
  if (pattern.length !== path.length) return false;
  return pattern.every((seg, i) => seg === '*' || seg === path[i]);
}

/** Segments back to text (`['$', 'items', '0']` → `$.items[0]`; digit segments read as indexes). */
export function formatPath(path: readonly string[]): string {
  return path.map((seg, i) => (i === 0 ? seg : childPath('', /^\d+$/.test(seg) ? Number(seg) : seg))).join('');
}

/** A concrete step: a member name or an array index. */
export type PathStep = string | number;

/** One step of a pattern: a key, an index, any one step (`*`), or any number of steps (`..`). */
export type PatternStep = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'any' } | { kind: 'deep' };

export type PathPattern = readonly PatternStep[];

export type PatternParse = { ok: true; pattern: PathPattern } | { ok: false; message: string };

/**
 * Parses `$.a.b`, `$.a[0]`, `$['k']`, `$["k"]`, `$.a[*]`, `$.a.*`, `$..k`, `$..[0]`. A leading
 * `$` is required, so a typo never silently ignores the whole message.
 */
export function parsePathPattern(text: string): PatternParse {
  const fail = (message: string): PatternParse => ({ ok: false, message: `${message} in JSON path "${text}"` });
  if (!text.startsWith('$')) return fail('a JSON path starts with "$"');
  const steps: PatternStep[] = [];
  let i = 1;
  while (i < text.length) {
    if (text.startsWith('..', i)) {
      steps.push({ kind: 'deep' });
      i += 2;
      if (text[i] === '[') continue;
      const m = /^(\*|[^.[\]]+)/.exec(text.slice(i));
      if (!m) return fail(`expected a key after ".." at position ${i}`);
      steps.push(m[1] === '*' ? { kind: 'any' } : { kind: 'key', key: m[1]! });
      i += m[1]!.length;
    } else if (text[i] === '.') {
      const m = /^(\*|[^.[\]]+)/.exec(text.slice(i + 1));
      if (!m) return fail(`expected a key after "." at position ${i + 1}`);
      steps.push(m[1] === '*' ? { kind: 'any' } : { kind: 'key', key: m[1]! });
      i += 1 + m[1]!.length;
    } else if (text[i] === '[') {
      const close = closingBracket(text, i);
      if (close === -1) return fail(`unclosed "[" at position ${i}`);
      const inner = text.slice(i + 1, close).trim();
      if (inner === '*') steps.push({ kind: 'any' });
      else if (/^\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$/s.test(inner)) steps.push({ kind: 'key', key: inner.slice(1, -1) });
      else if (/^".*"$/s.test(inner)) {
        try {
          steps.push({ kind: 'key', key: JSON.parse(inner) as string });
        } catch {
          return fail(`a bad quoted key at position ${i}`);
        }
      } else return fail(`"[${inner}]" is neither an index, "*" nor a quoted key`);
      i = close + 1;
    } else {
      return fail(`unexpected "${text[i]}" at position ${i}`);
    }
  }
  return { ok: true, pattern: steps };
}

/** The `]` that closes the bracket at `open`, skipping quoted keys (`$['a]b']`). */
function closingBracket(text: string, open: number): number {
  const quote = text[open + 1];
  if (quote === "'" || quote === '"') {
    for (let j = open + 2; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === quote) return text[j + 1] === ']' ? j + 1 : -1;
    }
    return -1;
  }
  return text.indexOf(']', open);
}

/** True when the pattern matches the whole path. */
export function pathMatches(pattern: PathPattern, path: readonly PathStep[]): boolean {
  return matchFrom(pattern, 0, path, 0);
}

function matchFrom(pattern: PathPattern, p: number, path: readonly PathStep[], s: number): boolean {
  // Iterative over plain steps; `..` branches (bounded by the path's length).
  while (p < pattern.length) {
    const step = pattern[p]!;
    if (step.kind === 'deep') {
      for (let skip = s; skip <= path.length; skip++) if (matchFrom(pattern, p + 1, path, skip)) return true;
      return false;
    }
    if (s >= path.length) return false;
    const at = path[s]!;
    if (step.kind === 'key' && at !== step.key) return false;
    if (step.kind === 'index' && at !== step.index) return false;
    p++;
    s++;
  }
  return s === path.length;
}
