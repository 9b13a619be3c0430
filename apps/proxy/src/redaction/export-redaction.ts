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
import { formatPath, matchesPath, parseJsonPath, stringifyJson, type PathSegment, type Frame, type HttpInfo, type JsonValue, type RedactionReport } from '@mcpscope/protocol';
import { REDACTED, redactHeaderValue } from './redact.js';
import { redactBodySecrets } from './redact-secrets.js';
import { redactCredentialsInText } from './redact-text.js';
import { headerNameRule, isListedSecretBodyKey, isSecretBodyKey, isSecretQueryKey, isUrlHeader } from './secret-names.js';


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

/** OAuth parameters that mark an object as a token request, where `code` is an authorization code. */
const OAUTH_SIBLINGS = ['grant_type', 'redirect_uri', 'code_verifier', 'client_id'];
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/g;

const MIN_ECHO_LENGTH = 6;
const HASH_BASE = 31;
/** HASH_BASE ** (MIN_ECHO_LENGTH - 1), the weight of the character leaving the window. */
const HASH_TOP = HASH_BASE ** (MIN_ECHO_LENGTH - 1);

/** Keys repeat across frames; normalising each once keeps the body walk cheap. */
const normalised = new Map<string, string>();
function normalise(key: string): string {
  let k = normalised.get(key);
  if (k === undefined) {
    k = key.toLowerCase().replace(/[-_]/g, '');
    if (normalised.size < 10_000) normalised.set(key, k);
  }
  return k;
}

function isSecretKey(key: string): boolean {
  return isSecretBodyKey(key);
}

/** `_meta` carries extension data; credential-looking keys there are secrets (progressToken is not). */
function isMetaCredential(key: string): boolean {
  const k = normalise(key.slice(key.lastIndexOf('/') + 1));
  if (k === 'progresstoken') return false;
  return /token|secret|auth|credential|password|apikey|cookie|session/.test(k);
}

export const BUILT_IN_RULES: readonly string[] = [
  'credential headers (authorization, cookie, set-cookie, x-api-key, x-goog-api-key, private-token, any *-token, *-api-key, *secret*, *password*)',
  'secret JSON keys anywhere in a body: access_token, refresh_token, id_token, token, client_secret, password, api_key, code_verifier, private_key, credentials, and any key containing "secret" or "password"',
  'credential-looking keys inside _meta (progressToken is kept)',
  'OAuth authorization codes: "code" next to grant_type/redirect_uri/client_id, and ?code= in URLs',
  'credentials in URL query strings (access_token, token, api_key, key, any *_token, *secret*, …)',
  'credential headers by their value: a Bearer or Basic credential or a JWT in any header, a long token in any header whose name says key, token, secret, auth, session, cookie, password or signature (the MCP session id is kept)',
  'bearer tokens and JWTs inside any string',
  'credentials quoted inside any string: ?api_key=… and the like in a URL, password=… and "api_key":"…"',
  'OAuth fields in form and HTML bodies: code, access_token, id_token, … as form fields or hidden <input> values (an OIDC form_post)',
];

/** The redaction marker as it stands in a URL's query (redact-secrets.ts). */
const REDACTED_IN_URL = encodeURIComponent(REDACTED);

export class Redactor {
  private readonly keys: Set<string>;
  private readonly paths: PathSegment[][];
  /** The length of the longest of `paths` (0 without paths). */
  private readonly longestPath: number;
  private readonly hits = new Map<string, number>();
  /** Values redacted by key or path; long enough that scrubbing them elsewhere is meaningful. */
  private readonly learned = new Set<string>();
  /** Learned secrets by the hash of their first MIN_ECHO_LENGTH characters, longest first. */
  private readonly byPrefix = new Map<number, string[]>();
  /** During `learn()` only keys and paths matter; the text scrubbers are skipped. */
  private learning = false;

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
    this.longestPath = Math.max(0, ...this.paths.map((p) => p.length));
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
    this.learning = true;
    try {
      this.frame(frame);
    } finally {
      this.learning = false;
      this.hits.clear();
    }
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
      return this.text(this.formFields(raw));
    }
    const redacted = this.value(value as JsonValue, this.paths.length > 0 ? ['$'] : null, undefined);
    return redacted === value ? raw : stringifyJson(redacted);
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
      // The session id and version, and challenges (`Bearer resource_metadata="…"`): no credential, read as sent.
      if (headerNameRule(name) === 'protocol' && !this.keys.has(normalise(name))) continue;
      const byName = this.keys.has(normalise(name)) ? `${REDACTED} (${value.length} chars)` : redactHeaderValue(name, value);
      if (byName !== value) this.hit(`header ${name.toLowerCase()}`);
      // A URL's credentials (a capture made before its Referer was redacted, a user's extra key in a Location's query).
      const next = byName !== value ? byName : this.text(isUrlHeader(name) ? this.url(value) : value);
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
        // A value capture already redacted keeps its marker and length, and is not counted again.
        if (eq === -1 || pair.startsWith(REDACTED_IN_URL, eq + 1)) return pair;
        const name = decodeURIComponentSafe(pair.slice(0, eq));
        if (!(isSecretQueryKey(name) || this.keys.has(normalise(name)))) return pair;
        changed = true;
        this.hit(`query ${name}`);
        return `${pair.slice(0, eq)}=${encodeURIComponent(REDACTED)}`;
      });
    return changed ? `${path.slice(0, q)}?${query.join('&')}` : path;
  }

  /** A body that is not JSON (a form, an HTML page): its OAuth fields and hidden inputs. */
  private formFields(raw: string): string {
    if (this.learning) return raw;
    const out = redactBodySecrets(raw, false);
    if (out !== raw) this.hit('OAuth field in a form or HTML body');
    return out;
  }

  /** Free text (non-JSON bodies, header values, string values): JWTs, bearer credentials, credentials quoted in URLs and assignments. */
  text(text: string): string {
    if (!this.options.enabled || this.learning) return text;
    // The substring checks skip the regexes for the vast majority of strings, which hold neither.
    let out = !text.includes('eyJ')
      ? text
      : text.replace(JWT, () => {
          this.hit('jwt');
          return REDACTED;
        });
    if (out.includes('Bearer') || out.includes('Basic')) {
      out = out.replace(BEARER, (_m, scheme: string) => {
        this.hit(`${scheme.toLowerCase()} credential`);
        return `${scheme} ${REDACTED}`;
      });
    }
    out = redactCredentialsInText(out, (rule) => this.hit(rule));
    return this.learned.size === 0 ? out : this.scrubEchoes(out);
  }

  /**
   * Replaces every learned secret in the text. Secrets are indexed by a hash of their first
   * MIN_ECHO_LENGTH characters and the text is scanned with a rolling hash, so the scan costs a
   * few integer operations per character however many secrets the export has learned (a
   * per-secret `includes` was quadratic on large captures).
   */
  private scrubEchoes(text: string): string {
    const n = MIN_ECHO_LENGTH;
    if (text.length < n) return text;
    let out = '';
    let copied = 0;
    let h = 0;
    for (let k = 0; k < n; k++) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(k)) | 0;
    for (let i = 0; ; ) {
      const candidates = this.byPrefix.get(h);
      const secret = candidates?.find((c) => text.startsWith(c, i));
      if (secret) {
        out += text.slice(copied, i) + REDACTED;
        i += secret.length;
        copied = i;
        this.hit('echo of a redacted value');
        if (i + n > text.length) break;
        h = 0;
        for (let k = 0; k < n; k++) h = (Math.imul(h, HASH_BASE) + text.charCodeAt(i + k)) | 0;
        continue;
      }
      if (i + n >= text.length) break;
      // Roll the window one character: drop text[i], add text[i + n].
      h = (Math.imul(h - Math.imul(text.charCodeAt(i), HASH_TOP), HASH_BASE) + text.charCodeAt(i + n)) | 0;
      i++;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  /**
   * Redacts a parsed body by key and path. The walk keeps its own stack instead of recursing, so a
   * frame nested 100,000 deep (JSON.parse accepts it) is redacted like any other rather than
   * overflowing the call stack and failing the export. Containers are copied only when a child
   * changed; an untouched subtree is returned as the same object.
   */
  private value(root: JsonValue, rootPath: string[] | null, rootParent: string | undefined): JsonValue {
    const stack: WalkNode[] = [];
    let result = this.visit(root, rootPath, rootParent, stack);
    while (stack.length > 0) {
      const node = stack[stack.length - 1]!;
      // Unless `node` was just entered, `result` is what its child `node.i - 1` became.
      if (result !== DESCEND) node.set(node.i - 1, result);
      result = DESCEND;
      let descended = false;
      while (node.i < node.size) {
        const i = node.i++;
        const key = node.keys ? node.keys[i]! : undefined;
        const item = node.child(i);
        const childKey = key ?? node.parentKey;
        // A user's path has a fixed length: below the longest one, no path can match (and copying
        // the path down a 100,000-deep frame would be quadratic), so the walk stops tracking it.
        const childPath = node.path !== null && node.path.length < this.longestPath ? [...node.path, key ?? String(i)] : null;
        if (key !== undefined) {
          const rule = this.keyRule(key, item, node.parentKey, node.oauth);
          if (rule) {
            this.hit(rule);
            this.remember(item);
            node.set(i, REDACTED);
            continue;
          }
        }
        const next = this.visit(item, childPath, childKey, stack);
        if (next === DESCEND) {
          descended = true;
          break;
        }
        node.set(i, next);
      }
      if (descended) continue;
      stack.pop();
      result = node.out ?? node.src;
    }
    return result as JsonValue;
  }

  /** A leaf's redacted value, or DESCEND after pushing a container onto the walk's stack. */
  private visit(value: JsonValue, path: string[] | null, parentKey: string | undefined, stack: WalkNode[]): JsonValue | typeof DESCEND {
    if (path !== null && this.paths.some((p) => matchesPath(p, path))) {
      this.hit(`path ${formatPath(path)}`);
      this.remember(value);
      return REDACTED;
    }
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    stack.push(new WalkNode(value, path, parentKey));
    return DESCEND;
  }

  /** Why this key's value must go, or undefined. Null and empty values carry no secret. */
  private keyRule(key: string, item: JsonValue, parentKey: string | undefined, oauth: boolean): string | undefined {
    if (item === null || item === '') return undefined;
    // Capture already redacted it ("[redacted] (40 chars)"): nothing left to hide.
    if (typeof item === 'string' && item.startsWith(REDACTED)) return undefined;
    if (this.keys.has(normalise(key))) return `key ${key}`;
    // A JSON-RPC error `code` is a number; an OAuth code is a string in a token request.
    if (key === 'code' && oauth && typeof item === 'string') return 'key code (OAuth)';
    if (typeof item === 'object' && !isListedSecretBodyKey(key)) return undefined;
    if (isSecretKey(key)) return `key ${key}`;
    if (parentKey === '_meta' && isMetaCredential(key)) return `_meta ${key}`;
    return undefined;
  }

  private remember(value: JsonValue): void {
    // Short values ("ada", "1234") would scrub ordinary words; numbers and objects stay put.
    if (typeof value !== 'string' || value.length < MIN_ECHO_LENGTH || value.includes(REDACTED) || this.learned.has(value)) return;
    this.learned.add(value);
    let prefix = 0;
    for (let k = 0; k < MIN_ECHO_LENGTH; k++) prefix = (Math.imul(prefix, HASH_BASE) + value.charCodeAt(k)) | 0;
    const list = this.byPrefix.get(prefix) ?? [];
    list.push(value);
    list.sort((a, b) => b.length - a.length);
    this.byPrefix.set(prefix, list);
  }

  private hit(rule: string): void {
    this.hits.set(rule, (this.hits.get(rule) ?? 0) + 1);
  }
}

/** Marks "the value is a container, now on the stack" in the iterative walk. */
const DESCEND: unique symbol = Symbol('descend');

/** One array or object being walked: its children are visited in order, copied on first change. */
class WalkNode {
  i = 0;
  readonly size: number;
  readonly keys: string[] | undefined;
  /** Whether the object is an OAuth token request (`code` is then a secret). */
  readonly oauth: boolean;
  out: JsonValue[] | { [key: string]: JsonValue } | undefined;

  constructor(
    readonly src: JsonValue[] | { [key: string]: JsonValue },
    /** Where the value is (`$`, key, …), while a user's JSON path could still match; else null. */
    readonly path: string[] | null,
    /** For an object, its own key; for an array, the key of the object holding it. */
    readonly parentKey: string | undefined,
  ) {
    this.keys = Array.isArray(src) ? undefined : Object.keys(src);
    this.size = this.keys ? this.keys.length : (src as JsonValue[]).length;
    this.oauth = !Array.isArray(src) && OAUTH_SIBLINGS.some((k) => k in src);
  }

  child(i: number): JsonValue {
    return this.keys ? (this.src as { [key: string]: JsonValue })[this.keys[i]!]! : (this.src as JsonValue[])[i]!;
  }

  set(i: number, next: JsonValue): void {
    if (next === this.child(i)) return;
    if (this.keys) ((this.out ??= { ...(this.src as { [key: string]: JsonValue }) }) as { [key: string]: JsonValue })[this.keys[i]!] = next;
    else ((this.out ??= [...(this.src as JsonValue[])]) as JsonValue[])[i] = next;
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
