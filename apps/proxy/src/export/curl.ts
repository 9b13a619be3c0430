/**
 * One request as a curl command line, to re-send it from a terminal (through the tap, so the
 * answer is captured too). Headers that describe the original connection are left out; redacted
 * credentials become a shell variable the user sets, never the marker text.
 */
import type { Frame } from '@mcpscope/protocol';
import { REDACTED } from '../security/redact.js';

/** Headers curl sets itself or that only described the captured connection. */
const SKIP = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'keep-alive', 'transfer-encoding', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for']);

export type CurlResult = { ok: true; command: string } | { ok: false; code: 'not_http'; message: string };

/** `frame` is the request's c2s frame (already redacted as the export wants). */
export function toCurl(frame: Frame, baseUrl?: string): CurlResult {
  if (!frame.http || frame.direction !== 'c2s') return { ok: false, code: 'not_http', message: 'only a request sent over HTTP can be written as curl' };
  const headers = frame.http.requestHeaders ?? {};
  const origin = baseUrl ?? `http://${headers.host ?? 'localhost'}`;
  const lines = [`curl ${quote(origin + frame.http.path)}`];
  if (frame.http.method !== 'GET' && frame.http.method !== 'POST') lines.push(`-X ${quote(frame.http.method)}`);
  else if (frame.http.method === 'GET' && frame.kind === 'data' && frame.raw !== '') lines.push('-X GET');
  for (const [name, value] of Object.entries(headers)) {
    if (SKIP.has(name) || name.startsWith('sec-')) continue;
    if (value.includes(REDACTED)) {
      // "Bearer [redacted] (43 chars)" → "Bearer $MCP_AUTHORIZATION": double quotes let the shell expand it.
      const scheme = /^(Bearer|Basic|Digest|Token)\s/i.exec(value)?.[1];
      const variable = `MCP_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
      lines.push(`-H "${name}: ${scheme ? `${scheme} ` : ''}\${${variable}}"`);
      continue;
    }
    lines.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (frame.raw !== '' && frame.http.method !== 'GET') lines.push(`--data-raw ${quote(frame.raw)}`);
  // SSE answers arrive as a stream: -N prints events as they come instead of buffering.
  if ((headers.accept ?? '').includes('text/event-stream')) lines.push('-N');
  return { ok: true, command: `${lines.join(' \\\n  ')}\n` };
}

/** POSIX single quotes: everything literal, a single quote written as '\''. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
