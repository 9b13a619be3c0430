/**
 * The one registry of names that carry credentials, used at capture (the tap, stdio, replay,
 * import) and at export alike, so nothing the README calls redacted is stored or exported in
 * clear. Rules are patterns as well as lists: the services that invent a header per product
 * (`X-Goog-Api-Key`, `Private-Token`, `X-Access-Token`, `X-Shopify-Access-Token`) are caught by
 * their shape, not by being listed.
 *
 * Names are compared in lower case with `-` and `_` dropped (`X-API-Key`, `x_api_key` and
 * `xapikey` are one name). Tool *arguments* are not here: they are the user's evidence and stay
 * exact in the capture (exports redact secret-looking keys in bodies, export-redaction.ts).
 */

/** A name as the rules compare it. */
export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Headers that are credentials by name (normalised). */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'apikey',
  'xapikey',
  'xauthtoken',
  'xgoogapikey',
  'privatetoken',
  'xaccesstoken',
  'xamzsecuritytoken',
  'xcsrftoken',
  'xxsrftoken',
  'ocpapimsubscriptionkey',
  // Azure Functions' function and host keys.
  'xfunctionskey',
]);

/**
 * How a header's name decides its redaction:
 * - `secret`: its value is a credential whatever it looks like (the list and shapes below);
 * - `shaped`: a name with a credential word in it (key, token, secret, auth, session, cookie,
 *   password, signature): its value is redacted when it looks like a credential
 *   (credential-shape.ts), so an `X-Functions-Key` or `X-Session` token goes and a short word stays;
 * - `plain`: any other name; only a value that is itself a credential (a `Bearer …`/`Basic …`
 *   credential, a JWT) is redacted;
 * - `protocol`: headers whose values the protocol itself needs readable and that carry no
 *   credential: the MCP session id (already the capture's session key) and version, and
 *   authentication challenges (`WWW-Authenticate: Bearer resource_metadata="…"` is OAuth discovery).
 */
export type HeaderNameRule = 'secret' | 'shaped' | 'plain' | 'protocol';

/** Never redacted by value (normalised): see `protocol` above. */
const PROTOCOL_HEADERS = new Set(['mcpsessionid', 'mcpprotocolversion', 'wwwauthenticate', 'proxyauthenticate', 'authenticationinfo', 'secwebsocketkey', 'secwebsocketaccept', 'idempotencykey']);

/** Words that make a header name's value worth a look (normalised names contain them). */
const CREDENTIAL_WORDS = /key|token|secret|auth|session|cookie|password|signature/;

/**
 * Rules by header name as written: every request repeats the same dozen names, and this ran for
 * each of them (2.6 % of the tap's CPU at 50 clients, profile-tap). Bounded, because names come
 * from clients: a flood of new names only empties it.
 */
const headerRules = new Map<string, HeaderNameRule>();
const HEADER_RULES_MAX = 1024;

export function headerNameRule(name: string): HeaderNameRule {
  let rule = headerRules.get(name);
  if (rule === undefined) {
    const n = normaliseName(name);
    rule = isSecretName(n) ? 'secret' : PROTOCOL_HEADERS.has(n) ? 'protocol' : CREDENTIAL_WORDS.test(n) ? 'shaped' : 'plain';
    if (headerRules.size >= HEADER_RULES_MAX) headerRules.clear();
    headerRules.set(name, rule);
  }
  return rule;
}

/** Header shapes that carry credentials: `*-token`, `*-api-key`, `*-auth-key`, `*authorization`, `*secret*`, `*password*`, `*-credential(s)`. */
function isSecretName(n: string): boolean {
  return SECRET_HEADERS.has(n) || n.endsWith('token') || n.endsWith('apikey') || n.endsWith('authkey') || n.endsWith('authorization') || n.includes('secret') || n.includes('password') || n.endsWith('credential') || n.endsWith('credentials');
}

/** Whether a header is a credential by its name alone, whatever its value. */
export function isSecretHeader(name: string): boolean {
  return headerNameRule(name) === 'secret';
}

/**
 * Headers whose value is a URL: their query's credentials are redacted as a request path's are.
 * A `Location` answering an OAuth authorization carries the code; a `Referer` from a
 * browser-based client carries its page's query (the MCP Inspector keeps its proxy's session
 * token there).
 */
const URL_HEADERS = new Set(['referer', 'location', 'content-location']);

/** Whether a header (any case) holds a URL whose query may carry credentials. */
export function isUrlHeader(name: string): boolean {
  // Every header of every request passes here: the length tells most names apart without a copy.
  const n = name.length;
  return (n === 7 || n === 8 || n === 16) && URL_HEADERS.has(name.toLowerCase());
}

/** Query parameters that carry credentials (normalised). */
const SECRET_QUERY_KEYS = new Set(['code', 'accesstoken', 'refreshtoken', 'idtoken', 'token', 'clientsecret', 'clientassertion', 'codeverifier', 'apikey', 'key', 'password', 'sig', 'signature', 'xamzsignature', 'xamzsecuritytoken', 'xamzcredential']);

/** Whether a query parameter's (decoded) name is a credential: `api_key`, `access_token`, `*_token`, `*secret*`, … */
export function isSecretQueryKey(name: string): boolean {
  const n = normaliseName(name);
  return SECRET_QUERY_KEYS.has(n) || n.endsWith('token') || n.endsWith('apikey') || n.includes('secret') || n.includes('password');
}

/** JSON keys whose values are credentials wherever they appear in an exported body (normalised). */
const SECRET_BODY_KEYS = new Set([
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'token',
  'authtoken',
  'bearertoken',
  'sessiontoken',
  'clientsecret',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'codeverifier',
  'privatekey',
  'credential',
  'credentials',
  'clientassertion',
  'registrationaccesstoken',
]);

/** A key named in the list itself (not only by pattern): its value goes even when it is an object. */
export function isListedSecretBodyKey(key: string): boolean {
  return SECRET_BODY_KEYS.has(normaliseName(key));
}

/** A JSON key whose value an export redacts anywhere in a body. */
export function isSecretBodyKey(key: string): boolean {
  const n = normaliseName(key);
  return SECRET_BODY_KEYS.has(n) || n.includes('secret') || n.includes('password') || n.endsWith('apikey');
}

/**
 * OAuth fields (RFC 6749, 7591, 7636, 8693) redacted in bodies at capture, as JSON keys or form
 * fields. `ALWAYS` anywhere, MCP frames too; `OAUTH_ONLY` only in OAuth traffic, since in an MCP
 * frame `code` is a JSON-RPC error code or a tool's argument (a code runner's source).
 */
export const OAUTH_BODY_FIELDS = {
  ALWAYS: ['access_token', 'refresh_token', 'id_token', 'client_secret', 'client_assertion', 'code_verifier', 'registration_access_token'],
  OAUTH_ONLY: ['code', 'assertion', 'subject_token', 'actor_token', 'device_code', 'password'],
} as const;
