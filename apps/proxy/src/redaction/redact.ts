/**
 * Secrets never reach the capture store: header values that carry credentials are replaced by a
 * marker that keeps their scheme and length, so a user can still see that a token was sent.
 */

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token']);

export const REDACTED = '[redacted]';

export function redactHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(Bearer|Basic|Digest|Token)\s/i.exec(value)?.[1];
  return `${scheme ? `${scheme} ` : ''}${REDACTED} (${value.length} chars)`;
}

/** Lower-cased header record with secrets redacted. */
export function redactedHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = redactHeaderValue(name, value);
  });
  return out;
}
