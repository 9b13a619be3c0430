/**
 * What a door record is: its role in a connection (MCP, a metadata document, an OAuth endpoint, a
 * preflight, an asset) and whether it is a probe — a request that is not MCP traffic and that a
 * host or a crawler sends to see what is there (a browser-like GET, HEAD, a crawler, favicon).
 * Pure and total: every record gets a role; unknown paths are `other`.
 */
import { doorPathname, type DoorRecord } from './door-record.js';

export type DoorRole =
  | 'mcp'
  | 'preflight'
  | 'protected-resource-metadata'
  | 'authorization-server-metadata'
  | 'openid-configuration'
  | 'server-card'
  | 'registration'
  | 'authorization'
  | 'token'
  | 'oauth-other'
  | 'asset'
  | 'other';

export type ProbeReason = 'browser-get' | 'head' | 'crawler' | 'favicon';

/** Endpoint paths learnt from authorization-server metadata that passed the tap. */
export interface LearnedEndpoints {
  registration?: ReadonlySet<string>;
  authorization?: ReadonlySet<string>;
  token?: ReadonlySet<string>;
  other?: ReadonlySet<string>;
}

type Rec = Pick<DoorRecord, 'method' | 'path' | 'requestHeaders' | 'mcp' | 'answer' | 'userAgent'>;

const PRM = '/.well-known/oauth-protected-resource';
const ASM = '/.well-known/oauth-authorization-server';
const OIDC = '/.well-known/openid-configuration';

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + '/');

export function isPreflight(r: Pick<DoorRecord, 'method' | 'requestHeaders'>): boolean {
  return r.method === 'OPTIONS' && r.requestHeaders.origin !== undefined && r.requestHeaders['access-control-request-method'] !== undefined;
}

export function doorRole(r: Rec, learned: LearnedEndpoints = {}): DoorRole {
  if (isPreflight(r) || r.answer === 'preflight') return 'preflight';
  if (r.mcp) return 'mcp';
  const path = doorPathname(r.path);
  if (startsWithSegment(path, PRM)) return 'protected-resource-metadata';
  if (startsWithSegment(path, ASM)) return 'authorization-server-metadata';
  if (startsWithSegment(path, OIDC) || path.endsWith(OIDC)) return 'openid-configuration';
  if (startsWithSegment(path, '/.well-known/mcp') || path === '/.well-known/mcp.json') return 'server-card';
  if (learned.registration?.has(path)) return 'registration';
  if (learned.authorization?.has(path)) return 'authorization';
  if (learned.token?.has(path)) return 'token';
  if (learned.other?.has(path)) return 'oauth-other';
  const last = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (/^(favicon\.(ico|png|svg)|apple-touch-icon.*\.png|robots\.txt)$/.test(last)) return 'asset';
  // Conventional names, for servers whose metadata did not pass the tap (2025-03-26 fallbacks).
  if (last === 'register' && r.method === 'POST') return 'registration';
  if (last === 'authorize') return 'authorization';
  if (last === 'token' && r.method === 'POST') return 'token';
  if (/^(revoke|introspect|jwks(\.json)?|userinfo|callback)$/.test(last) || path.startsWith('/.well-known/jwks')) return 'oauth-other';
  return 'other';
}

/** Crawlers and link previewers; `ChatGPT-User` fetches pages for a user, unlike `openai-mcp`. */
const CRAWLER = /bot\b|bot\/|crawler|spider|slurp|facebookexternalhit|embedly|preview|whatsapp|telegram|discord|slack|headless|ChatGPT-User/i;

/**
 * Why a request is a probe, or undefined when it is not one. Only MCP-endpoint traffic and
 * requests to other paths can be probes: a browser visiting the authorization endpoint is the
 * user signing in, and metadata fetches are discovery.
 */
export function probeReason(r: Rec, role: DoorRole = doorRole(r)): ProbeReason | undefined {
  if (role !== 'mcp' && role !== 'other' && role !== 'asset' && role !== 'server-card') return undefined;
  if (role === 'asset') return 'favicon';
  // A POST (or DELETE) is someone talking MCP, whatever its user agent says.
  if (r.method === 'HEAD') return 'head';
  if (r.method !== 'GET') return undefined;
  const ua = r.userAgent ?? r.requestHeaders['user-agent'];
  if (ua && CRAWLER.test(ua)) return 'crawler';
  if (r.method === 'GET' && isBrowserAccept(r.requestHeaders.accept)) return 'browser-get';
  return undefined;
}

/** `Accept` as a browser navigating sends it: HTML wanted, neither SSE nor JSON asked for. */
export function isBrowserAccept(accept: string | undefined): boolean {
  if (!accept) return false;
  const a = accept.toLowerCase();
  return a.includes('text/html') && !a.includes('text/event-stream') && !a.includes('application/json');
}

export const PROBE_LABELS: Record<ProbeReason, string> = {
  'browser-get': 'a browser-like GET (Accept: text/html)',
  head: 'a HEAD request',
  crawler: 'a crawler or link previewer',
  favicon: 'an icon or robots.txt fetch',
};

export const ROLE_LABELS: Record<DoorRole, string> = {
  mcp: 'MCP endpoint',
  preflight: 'CORS preflight',
  'protected-resource-metadata': 'protected-resource metadata (RFC 9728)',
  'authorization-server-metadata': 'authorization-server metadata (RFC 8414)',
  'openid-configuration': 'OpenID configuration',
  'server-card': 'MCP server card',
  registration: 'client registration (RFC 7591)',
  authorization: 'authorization endpoint',
  token: 'token endpoint',
  'oauth-other': 'other OAuth endpoint',
  asset: 'icon or robots.txt',
  other: 'other path',
};
