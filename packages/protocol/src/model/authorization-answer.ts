/**
 * An HTTP answer on the MCP endpoint that asks the client to authorize, rather than a broken
 * JSON-RPC message: a 401 or 403 with `WWW-Authenticate` (RFC 6750 §3, MCP Authorization: the
 * challenge names `resource_metadata`), or with an OAuth error body such as
 * `{"error":"invalid_token"}` (RFC 6750 §3.1) that carries no `jsonrpc`. Pairing settles the
 * request it answers as "authorization required" and the deriver finds no JSON-RPC fault in it.
 */
import type { HttpInfo } from './frame.js';
import { isJsonObject } from './json-rpc.js';

export function isAuthorizationAnswer(http: HttpInfo | undefined, raw: string): boolean {
  if (http?.status !== 401 && http?.status !== 403) return false;
  if (http.responseHeaders?.['www-authenticate'] !== undefined) return true;
  try {
    const body = JSON.parse(raw) as unknown;
    return isJsonObject(body) && typeof body.error === 'string' && !('jsonrpc' in body);
  } catch {
    return false;
  }
}

/** The row's message: "authorization required: HTTP 401, Bearer error="invalid_token" …". */
export function authorizationMessage(http: HttpInfo): string {
  const challenge = http.responseHeaders?.['www-authenticate'];
  return `authorization required: HTTP ${http.status}${challenge ? `, WWW-Authenticate: ${challenge.slice(0, 300)}` : ''}`;
}
