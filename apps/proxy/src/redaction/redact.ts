/**
 * Secrets never reach the capture store: header values that carry credentials (secret-names.ts)
 * are replaced by a marker that keeps their scheme and length, so a user can still see that a
 * token was sent.
 */
import { isSecretHeader } from './secret-names.js';

export const REDACTED = '[redacted]';

export function redactHeaderValue(name: string, value: string): string {
  if (!isSecretHeader(name)) return value;
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
