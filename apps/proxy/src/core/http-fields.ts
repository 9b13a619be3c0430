/**
 * What may be an HTTP header, by RFC 9110 (§5.1 field names, §5.5 field values). Headers read from
 * a file (an import) or written into a command (curl) pass through here: a name that is not a
 * `token` (a space, a colon, `$(`…`)` with parentheses) or a value with CR, LF or NUL is no header
 * at all, so it is dropped rather than carried into a request or a shell.
 */

/** tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** field-value: any visible character, space, tab or obs-text; never CR, LF or NUL (nor other controls). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\uffff]*$/;

export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

export function isHeaderValue(value: string): boolean {
  return FIELD_VALUE.test(value);
}

/**
 * A header record as mcpscope keeps it: names lower-cased (HTTP names are case-insensitive, and
 * every filter compares lower case), only real headers kept; the names dropped are returned so the
 * caller can say so. Values that are not strings (a hand-edited file) are dropped too.
 */
export function cleanHeaders(headers: unknown): { headers: Record<string, string>; dropped: string[] } {
  const out: Record<string, string> = {};
  const dropped: string[] = [];
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return { headers: out, dropped };
  for (const [rawName, value] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof value !== 'string' || !isHeaderName(rawName) || !isHeaderValue(value)) {
      dropped.push(rawName);
      continue;
    }
    const name = rawName.toLowerCase();
    // `X-Key` and `x-key` in one record are one header sent twice: joined as HTTP allows.
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return { headers: out, dropped };
}
