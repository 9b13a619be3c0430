/**
 * OAuth secrets in bodies never reach the store. A frame's raw text is evidence and must stay
 * byte for byte what was sent, so this rewrites only the values of secret fields, in place, and
 * leaves every other byte alone:
 * - anywhere (MCP frames too): the string value of a JSON key `access_token`, `refresh_token`,
 *   `id_token`, `client_secret`, `client_assertion` or `code_verifier`;
 * - in non-MCP bodies only (OAuth token, authorization and registration endpoints): also `code`,
 *   `assertion`, `subject_token`, `actor_token`, `device_code` and `password` (grants that carry
 *   credentials), as JSON keys or form fields, and the form fields of every key above, and the
 *   `value` of an HTML `<input>` named by any of them: an authorization server answering with
 *   `response_mode=form_post` (OpenID Connect) sends the code and tokens as hidden inputs of a
 *   page that posts itself to the client. In MCP frames `code` is a JSON-RPC error code or a
 *   tool's own argument (a code-runner's source), which must stay as sent.
 * The marker keeps the length, so a user can still see that a secret was sent.
 */
import { REDACTED } from './redact.js';
import { OAUTH_BODY_FIELDS } from './secret-names.js';

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
