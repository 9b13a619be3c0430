/**
 * "Copy as curl": one request as a shell command line, for the curl export (a captured request,
 * `toCurl`) and for the replay panel (a request about to be replayed, `curlCommand`). One writer
 * for both, so they quote, order and hide secrets the same way:
 * - everything literal is POSIX single-quoted, so the shell never interprets it: the URL, the
 *   method, every header name and value, the body (a header name may legally hold `$` and a
 *   backtick, and an imported file may hold anything);
 * - a secret becomes a `$MCP_<NAME>` variable the user exports before running: `'name: '"${VAR}"`,
 *   the variable alone in double quotes (its name is [A-Z0-9_] only), never its value and never
 *   the `[redacted]` marker text; its real value appears only when the caller passes it;
 * - what is not an HTTP header (a name that is not an RFC 9110 token, a value with CR, LF or
 *   NUL) is left out, as are headers curl sets itself or that described the captured connection.
 * The browser never builds commands itself: both dashboard buttons ask the API.
 */
import type { Frame } from '@mcpscope/protocol';
import { REDACTED } from '../redaction/redact.js';
import { isHeaderName, isHeaderValue } from '../core/http-fields.js';
import { namedByRecordedConnection } from '../upstream/http-headers.js';

export interface CurlInput {
  url: string;
  /** Default POST. */
  method?: string;
  headers: Record<string, string>;
  /** Sent with `--data-raw` unless empty or the method is GET. */
  body: string;
  /** Header names (lower-case) whose values are secret: written as variables unless in `secretValues`. */
  secretNames?: readonly string[];
  /** Real secret values by name, used only when the user asked for them. */
  secretValues?: Record<string, string>;
}

/**
 * Headers curl sets itself or that only described the captured connection: the hop-by-hop ones
 * (RFC 9110 §7.6.1), and any header the captured `Connection` header named.
 */
const SKIP = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'expect', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for']);

export function curlCommand(input: CurlInput): string {
  const method = input.method ?? 'POST';
  // SSE answers arrive as a stream: -N prints events as they come instead of buffering.
  const stream = (input.headers.accept ?? '').includes('text/event-stream');
  const lines = [`curl ${stream ? '-N ' : ''}${shellQuote(input.url)}`];
  if (method !== 'GET' && method !== 'POST') lines.push(`-X ${shellQuote(method)}`);
  else if (method === 'GET' && input.body !== '') lines.push('-X GET');
  const secrets = new Set(input.secretNames ?? []);
  const names = new Set([...Object.keys(input.headers), ...secrets]);
  const hopByHop = namedByRecordedConnection(input.headers);
  for (const name of [...names].sort(headerOrder)) {
    if (SKIP.has(name) || hopByHop?.has(name.toLowerCase()) || name.startsWith('sec-') || !isHeaderName(name)) continue;
    // Own properties only: `constructor` is a valid header name, and no secret.
    const real = input.secretValues && Object.hasOwn(input.secretValues, name) ? input.secretValues[name] : undefined;
    const value = real ?? (Object.hasOwn(input.headers, name) ? input.headers[name] : undefined);
    if (value === undefined || (real === undefined && secrets.has(name)) || value.includes(REDACTED)) {
      lines.push(placeholder(name, value));
      continue;
    }
    if (isHeaderValue(value)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (input.body !== '' && method !== 'GET') lines.push(`--data-raw ${shellQuote(input.body)}`);
  return lines.join(' \\\n  ');
}

export type CurlResult = { ok: true; command: string } | { ok: false; code: 'not_http'; message: string };

/**
 * A captured request as a command that re-sends it through the tap (so the answer is captured
 * too). `frame` is the request's c2s frame, already redacted as the export wants; the command ends
 * with a newline, as the file it is exported as.
 */
export function toCurl(frame: Frame, baseUrl?: string): CurlResult {
  if (!frame.http || frame.direction !== 'c2s') return { ok: false, code: 'not_http', message: 'only a request sent over HTTP can be written as curl' };
  const headers = frame.http.requestHeaders ?? {};
  const origin = baseUrl ?? `http://${headers.host ?? 'localhost'}`;
  const body = frame.kind === 'data' ? frame.raw : '';
  return { ok: true, command: `${curlCommand({ url: origin + frame.http.path, method: frame.http.method, headers, body })}\n` };
}

/** POSIX single quotes: everything literal, a single quote written as '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function secretVariable(name: string): string {
  return `MCP_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** "Bearer [redacted] (43 chars)" → `-H 'authorization: Bearer '"${MCP_AUTHORIZATION}"`: the scheme stays, the secret is the variable. */
function placeholder(name: string, value: string | undefined): string {
  const scheme = value?.includes(REDACTED) ? /^(Bearer|Basic|Digest|Token)\s/i.exec(value)?.[1] : undefined;
  return `-H ${shellQuote(`${name}: ${scheme ? `${scheme} ` : ''}`)}"\${${secretVariable(name)}}"`;
}

/** Content negotiation first, then MCP's own headers, then the rest, alphabetically. */
function headerOrder(a: string, b: string): number {
  const rank = (n: string) => (n === 'content-type' || n === 'accept' ? 0 : n.startsWith('mcp-') ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}
