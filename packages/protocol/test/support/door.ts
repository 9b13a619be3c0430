/**
 * Builders for door-record tests: one HTTP request at the tap, and a client's story as a list of
 * requests with sensible defaults (loopback, one connection, 5 ms apart).
 */
import type { DoorRecord } from '../../src/index.js';

let nextId = 1;

export function resetDoorIds(): void {
  nextId = 1;
}

export type DoorInit = Partial<DoorRecord> & { body?: unknown; reply?: unknown; form?: Record<string, string> };

/** A record; `reply` becomes a JSON response body, `body` a JSON request body, `form` a form body. */
export function door(init: DoorInit = {}): DoorRecord {
  const { body, reply, form, ...over } = init;
  const id = over.id ?? nextId++;
  const record: DoorRecord = {
    id,
    rev: id,
    ts: 1_000_000 + id * 5,
    method: 'GET',
    path: '/',
    host: '127.0.0.1:7788',
    status: 200,
    answer: 'upstream',
    end: 'complete',
    requestHeaders: { host: '127.0.0.1:7788', 'user-agent': 'node' },
    responseHeaders: {},
    firstByteMs: 1,
    endMs: 2,
    requestBytes: 0,
    responseBytes: 0,
    peer: { address: '127.0.0.1', port: 50_000, connection: 1 },
    userAgent: 'node',
    ...over,
  };
  if (over.requestHeaders) record.requestHeaders = { host: record.host ?? '', ...over.requestHeaders };
  if (reply !== undefined) {
    const text = typeof reply === 'string' ? reply : JSON.stringify(reply);
    record.responseBody = { text, size: text.length, truncated: false };
    record.responseHeaders = { 'content-type': 'application/json', ...record.responseHeaders };
  }
  if (body !== undefined) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    record.requestBody = { text, size: text.length, truncated: false };
    record.requestHeaders = { 'content-type': 'application/json', ...record.requestHeaders };
  }
  if (form !== undefined) {
    const text = new URLSearchParams(form).toString();
    record.requestBody = { text, size: text.length, truncated: false };
    record.requestHeaders = { 'content-type': 'application/x-www-form-urlencoded', ...record.requestHeaders };
  }
  return record;
}

export const ORIGIN = 'http://127.0.0.1:7788';

/** A good authorization server's metadata, at the tap's origin. */
export function goodAsMetadata(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer: ORIGIN,
    authorization_endpoint: `${ORIGIN}/authorize`,
    token_endpoint: `${ORIGIN}/token`,
    registration_endpoint: `${ORIGIN}/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    ...over,
  };
}

/** The whole story of an SDK client against an OAuth-protected server whose AS is at the tap's origin. */
export function goodOAuthStory(over: { prm?: Record<string, unknown>; asm?: Record<string, unknown>; challenge?: string | null } = {}): DoorRecord[] {
  const challenge = over.challenge === undefined ? `Bearer error="invalid_token", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"` : over.challenge;
  return [
    door({ method: 'POST', path: '/mcp', mcp: true, status: 401, responseHeaders: challenge === null ? {} : { 'www-authenticate': challenge }, sessionKey: 'client:node', frameSeqs: [1, 2] }),
    door({ path: '/.well-known/oauth-protected-resource/mcp', reply: over.prm ?? { resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN] } }),
    door({ path: '/.well-known/oauth-authorization-server', reply: goodAsMetadata(over.asm) }),
    door({ method: 'POST', path: '/register', status: 201, body: { client_name: 'test', redirect_uris: ['http://127.0.0.1:1/cb'] }, reply: { client_id: 'client-1', client_name: 'test' } }),
    door({
      path: '/authorize?response_type=code&client_id=client-1&code_challenge=abc&code_challenge_method=S256&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb&resource=http%3A%2F%2F127.0.0.1%3A7788%2Fmcp',
      status: 302,
      responseHeaders: { location: 'http://127.0.0.1:1/cb?code=%5Bredacted%5D%20(36%20chars)' },
    }),
    door({
      method: 'POST',
      path: '/token',
      form: { grant_type: 'authorization_code', code: '[redacted] (36 chars)', code_verifier: '[redacted] (43 chars)', client_id: 'client-1', resource: `${ORIGIN}/mcp` },
      reply: { access_token: '[redacted] (40 chars)', token_type: 'Bearer', expires_in: 3600 },
    }),
    door({ method: 'POST', path: '/mcp', mcp: true, requestHeaders: { authorization: 'Bearer [redacted] (47 chars)' }, responseHeaders: { 'mcp-session-id': 's1', 'content-type': 'text/event-stream' }, mcpSessionId: 's1', sessionKey: 's1', frameSeqs: [10, 11] }),
    door({ method: 'POST', path: '/mcp', mcp: true, status: 202, requestHeaders: { authorization: 'Bearer [redacted] (47 chars)', 'mcp-session-id': 's1' }, mcpSessionId: 's1', sessionKey: 's1', frameSeqs: [12] }),
    door({ method: 'POST', path: '/mcp', mcp: true, requestHeaders: { authorization: 'Bearer [redacted] (47 chars)', 'mcp-session-id': 's1' }, mcpSessionId: 's1', sessionKey: 's1', frameSeqs: [13, 14] }),
  ];
}
