/**
 * Header records as the capture stores them: lower-cased names, secrets redacted, several values
 * joined as one line. Built once per request and shared by every frame of that request.
 */
import { redactHeaderValue } from '../redaction/redact.js';

export function capturedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name] = redactHeaderValue(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}
