// Roles and probes of door records, and the WWW-Authenticate parser (RFC 9110 §11.6.1).
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { doorRole, parseWwwAuthenticate, probeReason, bearerChallenge } from '../../src/index.js';
import { door, resetDoorIds } from '../support/door.js';

beforeEach(() => resetDoorIds());

describe('doorRole', () => {
  it.each([
    [{ path: '/.well-known/oauth-protected-resource' }, 'protected-resource-metadata'],
    [{ path: '/.well-known/oauth-protected-resource/mcp?x=1' }, 'protected-resource-metadata'],
    [{ path: '/.well-known/oauth-authorization-server/tenant' }, 'authorization-server-metadata'],
    [{ path: '/.well-known/openid-configuration' }, 'openid-configuration'],
    [{ path: '/tenant/.well-known/openid-configuration' }, 'openid-configuration'],
    [{ path: '/.well-known/mcp/server-card.json' }, 'server-card'],
    [{ method: 'POST', path: '/register' }, 'registration'],
    [{ path: '/authorize?client_id=x' }, 'authorization'],
    [{ method: 'POST', path: '/oauth/token' }, 'token'],
    [{ path: '/favicon.ico' }, 'asset'],
    [{ method: 'POST', path: '/mcp', mcp: true as const }, 'mcp'],
    [{ method: 'OPTIONS', path: '/mcp', mcp: true as const, requestHeaders: { origin: 'http://x', 'access-control-request-method': 'POST' } }, 'preflight'],
    [{ path: '/assets/app.js' }, 'other'],
  ])('%j is %s', (init, role) => {
    expect(doorRole(door(init))).toBe(role);
  });

  it('learns endpoints from authorization-server metadata', () => {
    expect(doorRole(door({ method: 'POST', path: '/oauth/v2/exchange' }), { token: new Set(['/oauth/v2/exchange']) })).toBe('token');
  });
});

describe('probeReason', () => {
  it.each([
    [{ path: '/mcp', mcp: true as const, requestHeaders: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }, 'browser-get'],
    [{ method: 'HEAD', path: '/mcp', mcp: true as const }, 'head'],
    [{ path: '/', requestHeaders: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' }, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' }, 'crawler'],
    [{ path: '/favicon.ico' }, 'favicon'],
  ])('%j is a probe (%s)', (init, reason) => {
    expect(probeReason(door(init))).toBe(reason);
  });

  it.each([
    [{ method: 'POST', path: '/mcp', mcp: true as const, requestHeaders: { 'user-agent': 'facebookexternalhit' } }],
    [{ path: '/mcp', mcp: true as const, requestHeaders: { accept: 'text/event-stream' } }],
    [{ path: '/authorize?x=1', requestHeaders: { accept: 'text/html' } }],
    [{ path: '/.well-known/oauth-protected-resource', requestHeaders: { accept: 'text/html' } }],
  ])('%j is not a probe', (init) => {
    expect(probeReason(door(init))).toBeUndefined();
  });
});

describe('parseWwwAuthenticate', () => {
  it('reads the MCP challenge with quoted parameters', () => {
    expect(parseWwwAuthenticate('Bearer error="invalid_token", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", scope="a b"')).toEqual([
      { scheme: 'Bearer', params: { error: 'invalid_token', resource_metadata: 'https://x/.well-known/oauth-protected-resource/mcp', scope: 'a b' } },
    ]);
  });

  it('separates several challenges, token68 included', () => {
    expect(parseWwwAuthenticate('Negotiate abc==, Basic realm="r", Bearer realm=mcp, error=invalid_token')).toEqual([
      { scheme: 'Negotiate', params: {}, token68: 'abc==' },
      { scheme: 'Basic', params: { realm: 'r' } },
      { scheme: 'Bearer', params: { realm: 'mcp', error: 'invalid_token' } },
    ]);
    expect(bearerChallenge('Basic realm="x", Bearer scope="s"')?.params).toEqual({ scope: 's' });
  });

  it('unescapes quoted values and lower-cases parameter names', () => {
    expect(parseWwwAuthenticate('Bearer Realm="say \\"hi\\""')[0]!.params).toEqual({ realm: 'say "hi"' });
  });

  it('never throws on junk', () => {
    fc.assert(fc.property(fc.string(), (s) => void parseWwwAuthenticate(s)), { numRuns: 2000 });
  });
});
