/**
 * Credentials in URLs never reach the store: the value of a secret query parameter (an OAuth
 * callback's `code`, `access_token=`, `api_key=` …) in a request path or a `Location` is replaced
 * by a marker that keeps its length, and every other byte of the URL stays as sent — percent
 * escapes, order and even invalid encodings included, since the URL is evidence.
 */
import type { FrameInput } from '@mcpscope/protocol';
import { REDACTED } from './redact.js';
import { isSecretQueryKey } from './secret-names.js';

export { isSecretQueryKey } from './secret-names.js';

/** The path (or absolute URL) with secret query values redacted; the same string when none. */
export function redactUrlSecrets(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  let changed = false;
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq === -1 || !isSecretQueryKey(decodeSafe(pair.slice(0, eq)))) return pair;
    changed = true;
    return `${pair.slice(0, eq + 1)}${encodeURIComponent(`${REDACTED} (${pair.length - eq - 1} chars)`)}`;
  });
  if (!changed) return url;
  return `${url.slice(0, q)}?${parts.join('&')}${hash === -1 ? '' : url.slice(hash)}`;
}

/** A URL to show a person: without user and password, secret query values redacted. Anything else as given. */
export function shownUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return redactUrlSecrets(url);
  parsed.username = '';
  parsed.password = '';
  return redactUrlSecrets(parsed.href);
}

const QUERY_PARAM_IN_TEXT = /([?&])([A-Za-z0-9_.~%-]+)=([^&#\s"'<>]*)/g;

/**
 * Secret query values inside free text: a redirect page's body ("Redirecting to …?code=…"), an
 * HTML link, an error message quoting a URL. Every `?name=value` or `&name=value` whose name is a
 * credential loses its value.
 */
export function redactQuerySecretsInText(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(QUERY_PARAM_IN_TEXT, (all, sep: string, name: string, value: string) =>
    isSecretQueryKey(decodeSafe(name)) && !value.startsWith('%5Bredacted%5D') ? `${sep}${name}=${encodeURIComponent(`${REDACTED} (${value.length} chars)`)}` : all,
  );
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** A captured frame with the secret query values of its HTTP path redacted; the same object when none. */
export function redactFramePath(input: FrameInput): FrameInput {
  const path = input.http && redactUrlSecrets(input.http.path);
  return path !== undefined && path !== input.http!.path ? { ...input, http: { ...input.http!, path } } : input;
}
