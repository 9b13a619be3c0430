/**
 * Secrets never reach the capture store: header values that carry credentials are replaced by a
 * marker that keeps their scheme and length, so a user can still see that a token was sent. A
 * value is a credential by its header's name (secret-names.ts) or by its own shape
 * (credential-shape.ts). Only what is stored changes: the tap forwards every header as sent.
 */
import { isCredentialValue, isTokenLike } from './credential-shape.js';
import { headerNameRule } from './secret-names.js';

export const REDACTED = '[redacted]';

/** Whether a header's value is a credential, by the header's name or the value's shape. */
export function isCredentialHeader(name: string, value: string): boolean {
  switch (headerNameRule(name)) {
    case 'secret':
      return true;
    case 'protocol':
      return false;
    case 'shaped':
      return isCredentialValue(value) || isTokenLike(value);
    case 'plain':
      return isCredentialValue(value);
  }
}

export function redactHeaderValue(name: string, value: string): string {
  if (!isCredentialHeader(name, value)) return value;
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
