/**
 * The small JSON path dialect `--redact` accepts: `$.params.arguments.card`, `$.items[0].key`,
 * `$['odd key']`, and `*` / `[*]` for any one key or index. Paths are absolute (start at `$`),
 * the same form diagnostics use.
 */

/** One step of a path; `*` matches any key or index. */
export type PathSegment = string;

export type JsonPathResult = { ok: true; path: PathSegment[] } | { ok: false; message: string };

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

export function formatPath(path: readonly string[]): string {
  return path.map((seg, i) => (i === 0 ? seg : /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`)).join('');
}
