/**
 * Credentials written out inside free text: an error message quoting the URL it failed on
 * ("GET https://api.example/v1?api_key=sk-… failed"), a log line (`password=hunter2`), a JSON
 * document quoted inside a string (`{"api_key":"sk-…"}`). Three forms, each replacing only the
 * value, with the marker that keeps its length:
 * - `?name=value` / `&name=value` where the name is a secret query parameter (redact-secrets.ts);
 * - `name=value` after a space or punctuation, and `"name":"value"`, where the name is a secret
 *   JSON key (secret-names.ts: `api_key`, `password`, `client_secret`, `access_token`, …): not
 *   the short query names (`code`, `key`, `sig`), which in prose are ordinary words.
 * Used by exports and spans (export-redaction.ts); the capture keeps tool results as sent.
 */
import { REDACTED } from './redact.js';
import { redactQuerySecretsInText } from './redact-secrets.js';
import { isSecretBodyKey } from './secret-names.js';

const ASSIGNMENT = /(^|[\s(,;[{])([A-Za-z][A-Za-z0-9_.-]*)=([^\s&"'<>,;)\]}]+)/g;
const QUOTED_PAIR = /("([A-Za-z][A-Za-z0-9_.-]*)"\s*:\s*")((?:[^"\\]|\\.)*)"/g;

/** A marker already in place (`[redacted] (7 chars)`); the value pattern stops at its `]`. */
const MARKER_START = REDACTED.slice(0, -1);
const marker = (value: string) => `${REDACTED} (${value.length} chars)`;

/** The text with credential values replaced; the same string when there were none. `onHit` names each rule that fired. */
export function redactCredentialsInText(text: string, onHit: (rule: string) => void = () => {}): string {
  let out = text;
  if (out.includes('=')) {
    const before = out;
    out = redactQuerySecretsInText(out);
    if (out !== before) onHit('credential in a quoted URL');
    out = out.replace(ASSIGNMENT, (all, sep: string, name: string, value: string) => {
      if (!isSecretBodyKey(name) || value.startsWith(MARKER_START) || value.startsWith('%5Bredacted%5D')) return all;
      onHit(`${name.toLowerCase()}= in text`);
      return `${sep}${name}=${marker(value)}`;
    });
  }
  if (out.includes('":')) {
    out = out.replace(QUOTED_PAIR, (all, head: string, name: string, value: string) => {
      if (!isSecretBodyKey(name) || value === '' || value.startsWith(REDACTED)) return all;
      onHit(`"${name.toLowerCase()}" in text`);
      return `${head}${marker(value)}"`;
    });
  }
  return out;
}
