/**
 * Header records as the capture stores them: lower-cased names, secrets redacted, several values
 * joined as one line. Built once per request and shared by every frame of that request. Frames
 * and door records are built from the same request, so both go through here: a header that holds
 * a URL (`Referer`, `Location`) loses its query's credentials as the request's path does.
 */
import { redactHeaderValue } from '../redaction/redact.js';
import { redactUrlSecrets } from '../redaction/redact-secrets.js';
import { isUrlHeader } from '../redaction/secret-names.js';

export function capturedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const line = redactHeaderValue(name, Array.isArray(value) ? value.join(', ') : value);
    out[name] = isUrlHeader(name) ? redactUrlSecrets(line) : line;
  }
  return out;
}
