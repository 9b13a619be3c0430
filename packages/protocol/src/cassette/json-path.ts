/**
 * JSON paths in the spelling diagnostics use (`$.result.content[0].text`, `$["odd key"]`), and
 * the patterns `verify --ignore` accepts over them: `*` or `[*]` for any one key or index, and
 * `..` for any depth (`$..timestamp` ignores every `timestamp` member wherever it is).
 *
 * A pattern is parsed once and matched against concrete paths (arrays of keys and indexes) while
 * a value is walked, so ignoring costs one pass over the value, never a search per pattern.
 */

export type PathStep = string | number;

/** One step of a pattern: a key, an index, any one step (`*`), or any number of steps (`..`). */
export type PatternStep = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'any' } | { kind: 'deep' };

export type PathPattern = readonly PatternStep[];

export type PatternParse = { ok: true; pattern: PathPattern } | { ok: false; message: string };

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path one step below `parent`, in diagnostics' spelling. */
export function childPath(parent: string, step: PathStep): string {
  if (typeof step === 'number') return `${parent}[${step}]`;
  return IDENT.test(step) ? `${parent}.${step}` : `${parent}[${JSON.stringify(step)}]`;
}

/** `['result', 'content', 0]` → `$.result.content[0]`. */
export function formatPath(steps: readonly PathStep[]): string {
  let out = '$';
  for (const step of steps) out = childPath(out, step);
  return out;
}

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
