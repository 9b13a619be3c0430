/**
 * Redaction for exports. Every export is redacted unless the user opts out: captures get pasted
 * into bug reports, and a bearer token or an OAuth code in one is a leaked credential.
 *
 * Headers were already redacted at capture (security/redact.ts), but imported HARs (Chrome,
 * mitmproxy) were not, so headers are redacted again here. Bodies are redacted by JSON key,
 * anywhere in the document, plus the keys and JSON paths the user names. A frame whose body has
 * nothing to redact keeps its raw text byte for byte; one that has is re-serialised.
 *
 * A secret is often echoed elsewhere ("invalid api key sk-…" in an error message, a recipient
 * named in a tool's answer): an export first reads its frames once with `learn()`, and every value
 * redacted by key or path is then also scrubbed wherever else it appears as text.
 *
 * A redactor counts what it replaced, so the dashboard and the CLI can say what was removed.
 */
import type { Frame, HttpInfo, JsonValue } from '@mcpscope/protocol';
import { REDACTED, redactHeaderValue } from '../security/redact.js';
import { formatPath, matchesPath, parseJsonPath, type PathSegment } from './json-path.js';

/** Checks the user's `--redact` list; a message naming the bad entry, or undefined when fine. */
export function checkRedactList(items: readonly string[]): string | undefined {
  for (const item of items) {
    if (item.trim() === '') return 'an empty --redact entry';
    if (item.startsWith('$')) {
      const parsed = parseJsonPath(item);
      if (!parsed.ok) return `--redact ${item}: ${parsed.message}`;
    }
  }
  return undefined;
}

export interface RedactionOptions {
  /** False only when the user explicitly asked for an unredacted export. */
  enabled: boolean;
  /** Extra keys (`card_number`) or JSON paths (`$.params.arguments.card`) to redact. */
  extra?: readonly string[];
}

export interface RedactionHit {
  /** What matched: `key access_token`, `header authorization`, `path $.params.x`, `jwt`, … */
  rule: string;
  count: number;
}

export interface RedactionReport {
  enabled: boolean;
  /** What the export redacts, in words, for the user to read before downloading. */
  rules: string[];
  hits: RedactionHit[];
}

/** Keys whose values are credentials wherever they appear (compared without `_`/`-`, any case). */
const SECRET_KEYS = new Set([
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
]);

/** OAuth parameters that mark an object as a token request, where `code` is an authorization code. */
const OAUTH_SIBLINGS = ['grant_type', 'redirect_uri', 'code_verifier', 'client_id'];
/** Query parameters that carry credentials in URLs (OAuth callbacks, token-in-URL APIs). */
const SECRET_QUERY = new Set(['code', 'access_token', 'refresh_token', 'id_token', 'token', 'client_secret', 'api_key', 'apikey', 'key', 'password']);
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/g;

const MIN_ECHO_LENGTH = 6;

const normalise = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

function isSecretKey(key: string): boolean {
  const k = normalise(key);
  return SECRET_KEYS.has(k) || k.includes('secret') || k.includes('password');
}

/** `_meta` carries extension data; credential-looking keys there are secrets (progressToken is not). */
function isMetaCredential(key: string): boolean {
  const k = normalise(key.slice(key.lastIndexOf('/') + 1));
  if (k === 'progresstoken') return false;
  return /token|secret|auth|credential|password|apikey|cookie|session/.test(k);
}

export const BUILT_IN_RULES: readonly string[] = [
  'credential headers (authorization, cookie, set-cookie, x-api-key, …)',
  'secret JSON keys anywhere in a body: access_token, refresh_token, id_token, token, client_secret, password, api_key, code_verifier, private_key, credentials, and any key containing "secret" or "password"',
  'credential-looking keys inside _meta (progressToken is kept)',
  'OAuth authorization codes: "code" next to grant_type/redirect_uri/client_id, and ?code= in URLs',
  'credentials in URL query strings (access_token, token, api_key, …)',
  'bearer tokens and JWTs inside any string',
];

export class Redactor {
  private readonly keys: Set<string>;
  private readonly paths: PathSegment[][];
  private readonly hits = new Map<string, number>();
  /** Values redacted by key or path; long enough that scrubbing them elsewhere is meaningful. */
  private readonly learned = new Set<string>();

  constructor(readonly options: RedactionOptions) {
    this.keys = new Set();
    this.paths = [];
    for (const item of options.extra ?? []) {
      if (item.startsWith('$')) {
        const parsed = parseJsonPath(item);
        // Callers check the list first (checkRedactList); a bad path here simply matches nothing.
        if (parsed.ok) this.paths.push(parsed.path);
      } else this.keys.add(normalise(item));
    }
  }

  /** The rules in words, before anything is exported. */
  rules(): string[] {
    if (!this.options.enabled) return [];
    const rules = [...BUILT_IN_RULES];
    const keys = (this.options.extra ?? []).filter((e) => !e.startsWith('$'));
    const paths = (this.options.extra ?? []).filter((e) => e.startsWith('$'));
    if (keys.length > 0) rules.push(`your keys: ${keys.join(', ')}`);
    if (paths.length > 0) rules.push(`your JSON paths: ${paths.join(', ')}`);
    return rules;
  }

  report(): RedactionReport {
    const hits = [...this.hits].map(([rule, count]) => ({ rule, count })).sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
    return { enabled: this.options.enabled, rules: this.rules(), hits };
  }

  /** First pass: notes the secret values in a frame, so echoes of them anywhere are redacted too. */
  learn(frame: Frame): void {
    if (!this.options.enabled) return;
    this.frame(frame);
    this.hits.clear();
  }

  /** The frame as it may leave mcpscope. Returns the same object when nothing changed. */
  frame(frame: Frame): Frame {
    if (!this.options.enabled) return frame;
    const raw = frame.kind === 'data' ? this.body(frame.raw) : this.text(frame.raw);
    const http = frame.http ? this.http(frame.http) : undefined;
    if (raw === frame.raw && http === frame.http) return frame;
    const out: Frame = { ...frame, raw };
    if (http) out.http = http;
    return out;
  }

  /** A JSON body: redacted by key and path; text that is not JSON gets the string scrubbers. */
  body(raw: string): string {
    if (!this.options.enabled) return raw;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return this.text(raw);
    }
    const redacted = this.value(value as JsonValue, ['$'], undefined);
    return redacted === value ? raw : JSON.stringify(redacted);
  }

  http(http: HttpInfo): HttpInfo {
    if (!this.options.enabled) return http;
    const requestHeaders = http.requestHeaders && this.headers(http.requestHeaders);
    const responseHeaders = http.responseHeaders && this.headers(http.responseHeaders);
    const path = this.url(http.path);
    if (requestHeaders === http.requestHeaders && responseHeaders === http.responseHeaders && path === http.path) return http;
    const out: HttpInfo = { ...http, path };
    if (requestHeaders) out.requestHeaders = requestHeaders;
    if (responseHeaders) out.responseHeaders = responseHeaders;
    return out;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    if (!this.options.enabled) return headers;
    let out: Record<string, string> | undefined;
    for (const [name, value] of Object.entries(headers)) {
      if (value.includes(REDACTED)) continue; // already redacted at capture
      const byName = this.keys.has(normalise(name)) ? `${REDACTED} (${value.length} chars)` : redactHeaderValue(name, value);
      if (byName !== value) this.hit(`header ${name.toLowerCase()}`);
      const next = byName !== value ? byName : this.text(value);
      if (next !== value) (out ??= { ...headers })[name] = next;
    }
    return out ?? headers;
  }

  /** A path with a query string: credential parameters lose their values. */
  url(path: string): string {
    if (!this.options.enabled) return path;
    const q = path.indexOf('?');
    if (q === -1) return path;
    let changed = false;
    const query = path
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = decodeURIComponentSafe(eq === -1 ? pair : pair.slice(0, eq));
        if (eq === -1 || !(SECRET_QUERY.has(name.toLowerCase()) || this.keys.has(normalise(name)))) return pair;
        changed = true;
        this.hit(`query ${name}`);
        return `${pair.slice(0, eq)}=${encodeURIComponent(REDACTED)}`;
      });
    return changed ? `${path.slice(0, q)}?${query.join('&')}` : path;
  }

  /** Free text (non-JSON bodies, header values, string values): JWTs and bearer credentials. */
  text(text: string): string {
    if (!this.options.enabled) return text;
    let out = text.replace(JWT, () => {
      this.hit('jwt');
      return REDACTED;
    });
    out = out.replace(BEARER, (_m, scheme: string) => {
      this.hit(`${scheme.toLowerCase()} credential`);
      return `${scheme} ${REDACTED}`;
    });
    for (const secret of this.learned) {
      if (!out.includes(secret)) continue;
      out = out.split(secret).join(REDACTED);
      this.hit('echo of a redacted value');
    }
    return out;
  }

  private value(value: JsonValue, path: string[], parentKey: string | undefined): JsonValue {
    if (this.paths.some((p) => matchesPath(p, path))) {
      this.hit(`path ${formatPath(path)}`);
      this.remember(value);
      return REDACTED;
    }
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) {
      let out: JsonValue[] | undefined;
      value.forEach((item, i) => {
        const next = this.value(item, [...path, String(i)], parentKey);
        if (next !== item) (out ??= [...value])[i] = next;
      });
      return out ?? value;
    }
    if (value === null || typeof value !== 'object') return value;
    let out: { [key: string]: JsonValue } | undefined;
    const oauth = OAUTH_SIBLINGS.some((k) => k in value);
    for (const [key, item] of Object.entries(value)) {
      const rule = this.keyRule(key, item, parentKey, oauth);
      let next: JsonValue;
      if (rule) {
        this.hit(rule);
        this.remember(item);
        next = REDACTED;
      } else {
        next = this.value(item, [...path, key], key);
      }
      if (next !== item) (out ??= { ...value })[key] = next;
    }
    return out ?? value;
  }

  /** Why this key's value must go, or undefined. Null and empty values carry no secret. */
  private keyRule(key: string, item: JsonValue, parentKey: string | undefined, oauth: boolean): string | undefined {
    if (item === null || item === '') return undefined;
    if (this.keys.has(normalise(key))) return `key ${key}`;
    // A JSON-RPC error `code` is a number; an OAuth code is a string in a token request.
    if (key === 'code' && oauth && typeof item === 'string') return 'key code (OAuth)';
    if (typeof item === 'object' && !SECRET_KEYS.has(normalise(key))) return undefined;
    if (isSecretKey(key)) return `key ${key}`;
    if (parentKey === '_meta' && isMetaCredential(key)) return `_meta ${key}`;
    return undefined;
  }

  private remember(value: JsonValue): void {
    // Short values ("ada", "1234") would scrub ordinary words; numbers and objects stay put.
    if (typeof value === 'string' && value.length >= MIN_ECHO_LENGTH && !value.includes(REDACTED)) this.learned.add(value);
  }

  private hit(rule: string): void {
    this.hits.set(rule, (this.hits.get(rule) ?? 0) + 1);
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
