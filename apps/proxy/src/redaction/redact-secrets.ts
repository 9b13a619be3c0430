/**
 * Credentials in what the store keeps of a frame never reach it: in its URL and in its body, each
 * secret value is replaced by a marker that keeps its length, and every other byte stays as sent
 * (the frame is evidence). Capture applies `redactFramePath` and `redactFrameBody` to each frame.
 *
 * URLs: the value of a secret query parameter (an OAuth callback's `code`, `access_token=`,
 * `api_key=` …) in a request path or a `Location`; percent escapes, order and even invalid
 * encodings stay as sent.
 *
 * Bodies (OAuth secrets), rewritten in place:
 * - anywhere (MCP frames too): the string value of a JSON key `access_token`, `refresh_token`,
 *   `id_token`, `client_secret`, `client_assertion` or `code_verifier`;
 * - in non-MCP bodies only (OAuth token, authorization and registration endpoints): also `code`,
 *   `assertion`, `subject_token`, `actor_token`, `device_code` and `password` (grants that carry
 *   credentials), as JSON keys or form fields, and the form fields of every key above, and the
 *   `value` of an HTML `<input>` named by any of them: an authorization server answering with
 *   `response_mode=form_post` (OpenID Connect) sends the code and tokens as hidden inputs of a
 *   page that posts itself to the client. In MCP frames `code` is a JSON-RPC error code or a
 *   tool's own argument (a code-runner's source), which must stay as sent.
 */
import type { FrameInput } from '@mcpscope/protocol';
import { REDACTED } from './redact.js';
import { OAUTH_BODY_FIELDS, isSecretQueryKey } from './secret-names.js';

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


const ALWAYS = [...OAUTH_BODY_FIELDS.ALWAYS];
/** In MCP frames these are tool arguments (a password field, a code to run) and stay as sent. */
const OAUTH_ONLY = [...OAUTH_BODY_FIELDS.OAUTH_ONLY];

const jsonPattern = (keys: string[]) => new RegExp(`("(?:${keys.join('|')})"\\s*:\\s*)"((?:[^"\\\\]|\\\\.)*)"`, 'g');
const formPattern = (keys: string[]) => new RegExp(`(^|&)((?:${keys.join('|')})=)([^&]*)`, 'g');

const JSON_ALWAYS = jsonPattern(ALWAYS);
const JSON_OAUTH = jsonPattern([...ALWAYS, ...OAUTH_ONLY]);
const FORM_OAUTH = formPattern([...ALWAYS, ...OAUTH_ONLY]);
/**
 * Cheap pre-check: most frames contain none of the names and are returned untouched. (The
 * large-frame writer thread runs it too: a large body that matches comes back here.)
 */
export const MENTIONS_SECRET = /access_token|refresh_token|id_token|client_secret|client_assertion|code_verifier|"code"|(?:^|&)code=|assertion|subject_token|actor_token|device_code|password|<input|<INPUT/

const OAUTH_NAMES: ReadonlySet<string> = new Set([...ALWAYS, ...OAUTH_ONLY]);
const HTML_INPUT = /<input\b[^>]*>/gi;
const NAME_ATTRIBUTE = /\sname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const VALUE_ATTRIBUTE = /(\svalue\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

const marker = (value: string) => `${REDACTED} (${value.length} chars)`;

/** Redacts secret fields of a body; returns the same string when there is nothing to redact. */
export function redactBodySecrets(raw: string, mcp: boolean): string {
  if (!MENTIONS_SECRET.test(raw)) return raw;
  if (mcp) return raw.replace(JSON_ALWAYS, (_m, key: string, value: string) => `${key}"${marker(value)}"`);
  const json = raw.replace(JSON_OAUTH, (_m, key: string, value: string) => `${key}"${marker(value)}"`);
  const form = json.replace(FORM_OAUTH, (_m, sep: string, key: string, value: string) => `${sep}${key}${encodeURIComponent(marker(value))}`);
  return /<input/i.test(form) ? form.replace(HTML_INPUT, redactInput) : form;
}

/** One `<input …>` tag: its value goes when its name is an OAuth secret field; the tag is otherwise as sent. */
function redactInput(tag: string): string {
  const name = NAME_ATTRIBUTE.exec(tag);
  if (!name || !OAUTH_NAMES.has((name[1] ?? name[2] ?? name[3] ?? '').toLowerCase())) return tag;
  return tag.replace(VALUE_ATTRIBUTE, (all, head: string, dq?: string, sq?: string, bare?: string) => {
    const value = dq ?? sq ?? bare ?? '';
    if (value === '' || value.startsWith(REDACTED)) return all;
    return sq !== undefined ? `${head}'${marker(value)}'` : `${head}"${marker(value)}"`;
  });
}

/** OAuth token, authorization and registration endpoints (RFC 6749, RFC 7591), by path. */
export function isOAuthEndpoint(path: string | undefined): boolean {
  if (!path) return false;
  const pathname = path.split('?')[0]!;
  return /(^|\/)(token|authorize|register|oauth2?)(\/|$)/i.test(pathname);
}

/**
 * A captured frame's body with its secrets redacted, read by the endpoint it went to. JSON on an
 * MCP endpoint is MCP traffic, even when malformed: a string "code" there is a tool argument or
 * junk, never an OAuth code, and stays as sent. OAuth endpoints and form bodies are read as OAuth
 * traffic, where `code` is the authorization code.
 */
export function redactFrameBody(path: string | undefined, raw: string): string {
  return redactBodySecrets(raw, !isOAuthEndpoint(path) && /^\s*[[{]/.test(raw));
}

/** A captured frame with the secret query values of its HTTP path redacted; the same object when none. */
export function redactFramePath(input: FrameInput): FrameInput {
  const path = input.http && redactUrlSecrets(input.http.path);
  return path !== undefined && path !== input.http!.path ? { ...input, http: { ...input.http!, path } } : input;
}
