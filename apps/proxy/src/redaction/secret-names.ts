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
]);

/**
 * Verdicts by header name as written: every request repeats the same dozen names, and this ran
 * for each of them (2.6 % of the tap's CPU at 50 clients, profile-tap). Bounded, because names
 * come from clients: a flood of new names only empties it.
 */
const headerVerdicts = new Map<string, boolean>();
const HEADER_VERDICTS_MAX = 1024;

/** Header shapes that carry credentials: `*-token`, `*-api-key`, `*secret*`, `*password*`, `*-credential(s)`. */
export function isSecretHeader(name: string): boolean {
  let secret = headerVerdicts.get(name);
  if (secret === undefined) {
    const n = normaliseName(name);
    secret = SECRET_HEADERS.has(n) || n.endsWith('token') || n.endsWith('apikey') || n.includes('secret') || n.includes('password') || n.endsWith('credential') || n.endsWith('credentials');
    if (headerVerdicts.size >= HEADER_VERDICTS_MAX) headerVerdicts.clear();
    headerVerdicts.set(name, secret);
  }
  return secret;
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
