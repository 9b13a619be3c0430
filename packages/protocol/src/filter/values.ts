/**
 * Value syntax shared by the filter fields: globs, durations, byte sizes and quoting.
 * Kept apart from the field registry so the parser, printer and matcher agree on one reading.
 */

/** Characters that end a bare word; anything else (including `:`, `!`, `*`) may appear inside one. */
export const WORD_BREAK = /[\s()|&"]/;

/**
 * A field term's head: `name:`, `name>`, `name<` or `name=` (names may be dotted: `http.path:`).
 * A word matching this is never free text, but for `name=` of a field that takes no `=` (`a=b`).
 */
export const FIELD_HEAD = /^([A-Za-z][A-Za-z0-9_.-]*)([:<>=])/;

/** Quotes a string for the filter language: only `\` and `"` are escaped. */
export function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** True when `value` can be written as a bare word and read back unchanged. */
export function isBareSafe(value: string): boolean {
  if (value === '') return false;
  for (const ch of value) if (WORD_BREAK.test(ch)) return false;
  return true;
}

/**
 * `*` matches any run of characters; everything else is literal. Exact match when there is no `*`.
 * Matching is linear, with no regular expression: the part before the first `*` must start the
 * name, the part after the last must end it, and the parts between are found left to right, each
 * at its earliest place after the previous one (the earliest place never loses a match, because a
 * `*` can absorb whatever is skipped). A backtracking regex took seconds for nine `*`.
 */
export function globMatcher(pattern: string, caseInsensitive = false): (s: string) => boolean {
  const fold = caseInsensitive ? (s: string) => s.toLowerCase() : (s: string) => s;
  const parts = fold(pattern).split('*');
  if (parts.length === 1) {
    const exact = parts[0]!;
    return (s) => fold(s) === exact;
  }
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const middle = parts.slice(1, -1).filter((p) => p !== '');
  const least = first.length + last.length + middle.reduce((n, p) => n + p.length, 0);
  return (name) => {
    const s = fold(name);
    if (s.length < least || !s.startsWith(first) || !s.endsWith(last)) return false;
    let at = first.length;
    const end = s.length - last.length;
    for (const part of middle) {
      const found = s.indexOf(part, at);
      if (found === -1 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s)?$/;
const SIZE = /^(\d+(?:\.\d+)?)(b|k|kb|m|mb|g|gb)?$/;
const SIZE_FACTOR: Record<string, number> = { b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };

/** Milliseconds of `500`, `500ms` or `1.5s`; undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * (m[2] === 's' ? 1000 : 1);
}

/** Bytes of `10000`, `10kb` or `1.5mb` (binary multiples); undefined when the text is not a size. */
export function parseSize(text: string): number | undefined {
  const m = SIZE.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * SIZE_FACTOR[m[2] ?? 'b']!;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The canonical JSON text of an `id:` value: numbers stay numbers, anything else is a string id. */
export function idValue(text: string, quoted: boolean): string {
  if (!quoted && JSON_NUMBER.test(text) && Number.isFinite(Number(text))) return String(Number(text));
  return JSON.stringify(text);
}

/** Formats a byte count for sentences: `10 KB (10,240 bytes)`. */
export function describeBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes >= 1024 ** 2) return `${trim(bytes / 1024 ** 2)} MB (${exact})`;
  if (bytes >= 1024) return `${trim(bytes / 1024)} KB (${exact})`;
  return exact;
}

function trim(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
