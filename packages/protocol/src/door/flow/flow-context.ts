/**
 * What every check of one client's flow reads: its records with their roles, the endpoints its
 * authorization-server metadata named, the MCP URL it used, and the steps written so far.
 */
import { doorRole, type DoorRole, type LearnedEndpoints } from '../door-classify.js';
import { jsonDocument, stringField } from '../door-bodies.js';
import type { DoorClient } from '../door-clients.js';
import { doorPathname, requestedOrigin, requestedUrl, type DoorRecord } from '../door-record.js';
import type { FlowFacts, FlowPhase, FlowStep, StepColour } from './flow-types.js';

export interface FlowContext {
  client: DoorClient;
  facts: FlowFacts;
  records: readonly DoorRecord[];
  roles: ReadonlyMap<number, DoorRole>;
  learned: LearnedEndpoints;
  /** The MCP endpoint as the client addressed it (its first MCP request), if it made one. */
  mcpUrl?: string;
  steps: FlowStep[];
}

export function flowContext(client: DoorClient, facts: FlowFacts): FlowContext {
  const learned = learnEndpoints(client.records);
  const roles = new Map<number, DoorRole>();
  for (const r of client.records) roles.set(r.id, doorRole(r, learned));
  const ctx: FlowContext = { client, facts, records: client.records, roles, learned, steps: [] };
  const mcp = client.records.find((r) => r.mcp && r.host !== undefined);
  const url = mcp ? requestedUrl(mcp) : undefined;
  if (url) ctx.mcpUrl = url;
  return ctx;
}

export function roleOf(ctx: FlowContext, r: DoorRecord): DoorRole {
  return ctx.roles.get(r.id) ?? 'other';
}

export function addStep(
  ctx: FlowContext,
  phase: FlowPhase,
  colour: StepColour,
  check: string,
  title: string,
  reason: string,
  records: readonly DoorRecord[],
  extra: { spec?: string; exchanges?: string[]; probe?: string } = {},
): FlowStep {
  const step: FlowStep = { phase, colour, check, title, reason, records: records.map((r) => r.id) };
  if (extra.spec) step.spec = extra.spec;
  if (extra.exchanges && extra.exchanges.length > 0) step.exchanges = extra.exchanges;
  if (extra.probe) step.probe = extra.probe;
  ctx.steps.push(step);
  return step;
}

/** `GET /path → 404` (the query left out: it is in the record). */
export function titleOf(r: DoorRecord): string {
  const status = r.status !== undefined ? String(r.status) : r.end === 'open' ? 'streaming' : 'no answer';
  return `${r.method} ${doorPathname(r.path)} → ${status}`;
}

/** Records after `r` (in arrival order) that satisfy `test`. */
export function recordsAfter(ctx: FlowContext, r: DoorRecord, test: (x: DoorRecord) => boolean): DoorRecord[] {
  return ctx.records.filter((x) => x.id > r.id && test(x));
}

/** Whether any record of the client has one of these roles. */
export function hasRole(ctx: FlowContext, ...roles: DoorRole[]): boolean {
  return ctx.records.some((r) => roles.includes(roleOf(ctx, r)));
}

export const ok = (r: DoorRecord) => r.status !== undefined && r.status >= 200 && r.status < 300;

/**
 * The path part of endpoints named in authorization-server metadata that passed the tap, when
 * they are on the origin the client addressed (only those can pass the tap again).
 */
function learnEndpoints(records: readonly DoorRecord[]): LearnedEndpoints {
  const registration = new Set<string>();
  const authorization = new Set<string>();
  const token = new Set<string>();
  const other = new Set<string>();
  for (const r of records) {
    const path = doorPathname(r.path);
    if (!path.includes('/.well-known/oauth-authorization-server') && !path.includes('/.well-known/openid-configuration')) continue;
    const doc = jsonDocument(r.responseBody);
    if (!doc) continue;
    const origin = requestedOrigin(r);
    const add = (set: Set<string>, name: string) => {
      const value = stringField(doc, name);
      if (!value) return;
      try {
        const url = new URL(value, origin);
        if (origin === undefined || url.origin === origin) set.add(url.pathname);
      } catch {
        // not a URL: the metadata check says so
      }
    };
    add(registration, 'registration_endpoint');
    add(authorization, 'authorization_endpoint');
    add(token, 'token_endpoint');
    for (const name of ['revocation_endpoint', 'introspection_endpoint', 'userinfo_endpoint', 'jwks_uri']) add(other, name);
  }
  return { registration, authorization, token, other };
}

/** Same URL, allowing for one trailing slash either way and case in scheme and host. */
export function sameUrl(a: string, b: string): boolean {
  const norm = (s: string) => {
    try {
      const u = new URL(s);
      return `${u.origin}${u.pathname.replace(/\/+$/, '')}${u.search}`;
    } catch {
      return s.replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/** The URL, or undefined when the text is not an absolute URL. */
export function safeUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/** The origin of a URL, or undefined when it is not one. */
export function originOf(url: string): string | undefined {
  return safeUrl(url)?.origin;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/** Whether a Host (name and optional port) is a loopback name. */
export function isLoopbackHost(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK.test(host);
}
