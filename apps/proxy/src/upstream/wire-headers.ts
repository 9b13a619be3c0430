/**
 * The HTTP headers a replayed message travels with (protocol-reference §1.4, §1.5, §1.7):
 * the client's own headers as captured, its credentials restored from memory, the session and
 * negotiated version, and in the 2026-07-28 era `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`
 * recomputed from the edited body (a stale one gets 400 / -32020 HeaderMismatch).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '@mcpscope/protocol';
import { REDACTED } from '../redaction/redact.js';
import { isHeaderName, isHeaderValue } from '../core/http-fields.js';
import { namedByRecordedConnection } from './http-headers.js';

export const MODERN_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** Headers recomputed for every replay, so never copied from the captured request. */
const RECOMPUTED = /^(mcp-method|mcp-name|mcp-param-.*|mcp-session-id|mcp-protocol-version|content-type|accept)$/;
/** Per-connection or per-hop headers (and those `Connection` names), and ones that would lie about this request. */
const NOT_CARRIED = /^(host|connection|keep-alive|te|trailer|transfer-encoding|upgrade|proxy-.*|content-length|accept-encoding|x-forwarded-.*|last-event-id|traceparent|tracestate|baggage)$/;

export interface WireContext {
  /** The captured client request's headers (lower-cased, secrets redacted). */
  captured?: Record<string, string>;
  /** The session's real secret headers, from memory. */
  credentials: Record<string, string>;
  sessionId?: string;
  protocolVersion?: string;
  /** The tool's inputSchema, for `x-mcp-header` parameters (tools/call, 2026-07-28). */
  inputSchema?: JsonObject;
}

export interface WireHeaders {
  headers: Record<string, string>;
  /** Secret headers the client sent whose value mcpscope no longer holds (e.g. after a restart). */
  missingCredentials: string[];
}

export function isModernMessage(message: JsonObject): boolean {
  const meta = isJsonObject(message.params) ? message.params._meta : undefined;
  return isJsonObject(meta) && typeof meta[MODERN_VERSION_META] === 'string';
}

export function wireHeaders(message: JsonObject, ctx: WireContext): WireHeaders {
  const headers: Record<string, string> = {};
  const missingCredentials: string[] = [];
  // RFC 9110 §7.6.1: what the captured `Connection` header named belonged to that connection only.
  const hopByHop = ctx.captured ? namedByRecordedConnection(ctx.captured) : undefined;
  for (const [rawName, value] of Object.entries(ctx.captured ?? {})) {
    // Compared in lower case whatever the capture says: an imported `Host` or `Mcp-Session-Id` is
    // still the header the filters keep out. What is not a header at all is not sent.
    const name = rawName.toLowerCase();
    if (RECOMPUTED.test(name) || NOT_CARRIED.test(name) || hopByHop?.has(name) || typeof value !== 'string' || !isHeaderName(name) || !isHeaderValue(value)) continue;
    if (value.includes(REDACTED)) {
      const real = ctx.credentials[name];
      if (real === undefined) missingCredentials.push(name);
      else headers[name] = real;
    } else {
      headers[name] = value;
    }
  }
  for (const [name, value] of Object.entries(ctx.credentials)) headers[name.toLowerCase()] ??= value;
  headers['content-type'] = 'application/json';
  headers['accept'] = 'application/json, text/event-stream';
  if (ctx.sessionId !== undefined) headers['mcp-session-id'] = ctx.sessionId;
  const params = isJsonObject(message.params) ? message.params : undefined;
  const method = typeof message.method === 'string' ? message.method : undefined;
  const bodyVersion = isModernMessage(message) ? ((params!._meta as JsonObject)[MODERN_VERSION_META] as string) : undefined;
  // In 2026-07-28 the header must equal the body's `_meta` version; before, it is the negotiated one.
  const version = bodyVersion ?? ctx.protocolVersion;
  if (version !== undefined && method !== 'initialize') headers['mcp-protocol-version'] = version;
  if (bodyVersion !== undefined && method !== undefined) Object.assign(headers, modernHeaders(method, params, ctx.inputSchema));
  return { headers, missingCredentials };
}

/** `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` for a 2026-07-28 request. */
export function modernHeaders(method: string, params: JsonObject | undefined, inputSchema?: JsonObject): Record<string, string> {
  const out: Record<string, string> = { 'mcp-method': encodeHeaderValue(method) };
  const name = method === 'tools/call' || method === 'prompts/get' ? params?.name : method === 'resources/read' ? params?.uri : undefined;
  if (typeof name === 'string') out['mcp-name'] = encodeHeaderValue(name);
  if (method === 'tools/call' && inputSchema && isJsonObject(params?.arguments)) {
    const args = params.arguments;
    const properties = isJsonObject(inputSchema.properties) ? inputSchema.properties : {};
    for (const [prop, schema] of Object.entries(properties)) {
      if (!isJsonObject(schema) || typeof schema['x-mcp-header'] !== 'string') continue;
      const value = args[prop];
      if (value === undefined || value === null) continue;
      out[`mcp-param-${schema['x-mcp-header'].toLowerCase()}`] = encodeHeaderValue(scalarText(value));
    }
  }
  return out;
}

function scalarText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Plain printable ASCII as is; anything else as `=?base64?<b64>?=` (§1.5). */
export function encodeHeaderValue(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value) && value.trim() === value) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `=?base64?${btoa(binary)}?=`;
}
