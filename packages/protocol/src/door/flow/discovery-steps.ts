/**
 * Discovery checks: the 401 that starts it (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1), the
 * protected-resource metadata (RFC 9728 §2, §3.3) and the authorization-server metadata
 * (RFC 8414 §2, §3.3; OpenID Connect Discovery), with the MCP authorization rules on top of them
 * (PKCE S256 advertised or the client must refuse; DCR or a client-metadata document to register).
 */
import { isJsonResponse, jsonDocument, stringField, stringList, type JsonDocument } from '../door-bodies.js';
import { doorPathname, requestedOrigin, type DoorRecord } from '../door-record.js';
import { bearerChallenge } from '../www-authenticate.js';
import { addStep, ok, originOf, safeUrl, recordsAfter, roleOf, sameUrl, titleOf, type FlowContext } from './flow-context.js';

const PRM = '/.well-known/oauth-protected-resource';
const ASM = '/.well-known/oauth-authorization-server';
const OIDC = '/.well-known/openid-configuration';
const MCP_AUTH = 'MCP 2025-11-25 Authorization';

/** A 401 (or 403) from the MCP endpoint. */
export function challengeStep(ctx: FlowContext, r: DoorRecord): void {
  const header = r.responseHeaders['www-authenticate'];
  const sentToken = r.requestHeaders.authorization !== undefined;
  const title = titleOf(r);
  if (r.status === 403) {
    const error = bearerChallenge(header)?.params.error;
    const scope = bearerChallenge(header)?.params.scope;
    const reason =
      error === 'insufficient_scope'
        ? `The token lacks a scope this request needs${scope ? ` (the server asks for "${scope}")` : ''}: the client must ask for a new token with that scope.`
        : 'The server refused the request with this token (403): the token is valid but not allowed to do this.';
    addStep(ctx, 'mcp', 'red', error === 'insufficient_scope' ? 'insufficient-scope' : 'forbidden', title, reason, [r], { spec: 'RFC 6750 §3.1' });
    return;
  }
  if (header === undefined) {
    addStep(ctx, sentToken ? 'mcp' : 'discovery', 'red', 'unauthorized-without-challenge', title,
      'The server answered 401 without WWW-Authenticate: HTTP requires the header on every 401, and it is how an MCP client finds the protected-resource metadata; clients that do not guess the well-known URL stop here.',
      [r], { spec: 'RFC 9110 §15.5.2, RFC 9728 §5.1' });
    return;
  }
  const bearer = bearerChallenge(header);
  if (!bearer) {
    addStep(ctx, 'discovery', 'red', 'no-bearer-challenge', title, `The 401 challenges with "${header.split(/[\s,]/)[0]}" but not Bearer: MCP clients present OAuth access tokens as Bearer tokens.`, [r], { spec: 'RFC 6750 §3, ' + MCP_AUTH });
    return;
  }
  if (sentToken) {
    const description = bearer.params.error_description ? ` (${bearer.params.error_description})` : '';
    addStep(ctx, 'mcp', 'red', 'token-rejected', title,
      `The server refused the token the client sent${bearer.params.error ? `: ${bearer.params.error}` : ''}${description}; if it was just issued, the token's audience or resource may not be what the server expects.`,
      [r], { spec: 'RFC 6750 §3.1' });
    return;
  }
  const metadataUrl = bearer.params.resource_metadata;
  if (metadataUrl === undefined) {
    addStep(ctx, 'discovery', 'amber', 'no-resource-metadata-param', title,
      'The 401 has a Bearer challenge but no resource_metadata: clients must now guess the well-known URL (allowed since MCP 2025-11-25; 2025-06-18 clients require the parameter).',
      [r], { spec: 'RFC 9728 §5.1, ' + MCP_AUTH });
    return;
  }
  const origin = requestedOrigin(r);
  const target = originOf(metadataUrl);
  if (target === undefined) {
    addStep(ctx, 'discovery', 'red', 'resource-metadata-not-url', title, `resource_metadata="${metadataUrl}" is not an absolute URL, so the client cannot fetch it.`, [r], { spec: 'RFC 9728 §5.1' });
    return;
  }
  if (origin !== undefined && target !== origin) {
    addStep(ctx, 'discovery', 'red', 'resource-metadata-elsewhere', title,
      `resource_metadata points at ${target}, not at ${origin} where the client reached the server, so discovery leaves the tap${publicUrlHint(ctx, origin, target)}.`,
      [r], { spec: 'RFC 9728 §5.1' });
    return;
  }
  const path = new URL(metadataUrl).pathname;
  const fetched = recordsAfter(ctx, r, (x) => x.method === 'GET' && doorPathname(x.path) === path)[0];
  if (fetched && !ok(fetched)) {
    addStep(ctx, 'discovery', 'red', 'resource-metadata-unresolved', title, `The challenge points to ${path}, which answered ${fetched.status ?? 'nothing'} when the client fetched it.`, [r, fetched], { spec: 'RFC 9728 §5.1' });
  } else if (fetched) {
    addStep(ctx, 'discovery', 'green', 'challenge', title, `Authorization required: the Bearer challenge points to ${path}, and the client fetched it through the tap.`, [r, fetched], { spec: 'RFC 9728 §5.1' });
  } else {
    addStep(ctx, 'discovery', 'amber', 'resource-metadata-not-fetched', title, `The challenge points to ${path}, but the client has not fetched it through the tap.`, [r], { spec: 'RFC 9728 §5.1' });
  }
}

/** Protected-resource metadata (RFC 9728). */
export function protectedResourceStep(ctx: FlowContext, r: DoorRecord): void {
  const title = titleOf(r);
  if (!ok(r)) {
    const next = recordsAfter(ctx, r, (x) => roleOf(ctx, x) === 'protected-resource-metadata');
    if (next.length > 0) {
      addStep(ctx, 'discovery', 'grey', 'prm-not-here', title, `Not here (${r.status ?? 'no answer'}); the client tried ${doorPathname(next[0]!.path)} next.`, [r], { spec: MCP_AUTH });
    } else if (recordsAfter(ctx, r, (x) => roleOf(ctx, x) === 'authorization-server-metadata' && ok(x)).length > 0) {
      addStep(ctx, 'discovery', 'amber', 'no-protected-resource-metadata', title,
        'No protected-resource metadata: the client fell back to the 2025-03-26 behaviour (authorization-server metadata on the MCP server\'s own origin), which newer clients no longer do.',
        [r], { spec: 'RFC 9728 §3, ' + MCP_AUTH });
    } else {
      addStep(ctx, 'discovery', 'red', 'no-protected-resource-metadata', title,
        `No protected-resource metadata: the last URL the client tried answered ${r.status ?? 'nothing'}, so it cannot learn which authorization server to use.`,
        [r], { spec: 'RFC 9728 §3, ' + MCP_AUTH });
    }
    return;
  }
  const doc = jsonDocument(r.responseBody);
  if (!doc) {
    addStep(ctx, 'discovery', 'red', 'prm-not-json', title, notJson(r), [r], { spec: 'RFC 9728 §3.2' });
    return;
  }
  const resource = stringField(doc, 'resource');
  const servers = stringList(doc, 'authorization_servers') ?? [];
  let clean = true;
  if (resource === undefined) {
    clean = false;
    addStep(ctx, 'discovery', 'red', 'prm-no-resource', title, 'The metadata has no "resource", which RFC 9728 requires: clients cannot check that it describes this server.', [r], { spec: 'RFC 9728 §2' });
  } else {
    clean = resourceCheck(ctx, r, resource) && clean;
  }
  if (servers.length === 0) {
    clean = false;
    addStep(ctx, 'discovery', 'red', 'prm-no-authorization-servers', title, 'The metadata names no authorization_servers, so the client does not know where to get a token.', [r], { spec: 'RFC 9728 §2, ' + MCP_AUTH });
  }
  if (clean) {
    const origin = requestedOrigin(r);
    const direct = servers.filter((s) => originOf(s) !== origin);
    const where = direct.length > 0 ? `; the client talks to ${direct.map((s) => originOf(s) ?? s).join(', ')} directly, which the tap does not see` : '';
    addStep(ctx, 'discovery', 'green', 'prm', title, `Names resource ${resource} and authorization server ${servers.join(', ')}${where}.`, [r], { spec: 'RFC 9728 §3.3' });
  }
}

/** RFC 9728 §3.3: the metadata must describe the URL the client used. Returns true when fine. */
function resourceCheck(ctx: FlowContext, r: DoorRecord, resource: string): boolean {
  const origin = requestedOrigin(r);
  const suffix = doorPathname(r.path).slice(PRM.length);
  const expected = ctx.mcpUrl ?? (origin !== undefined && suffix !== '' ? origin + suffix : undefined);
  const title = titleOf(r);
  if (expected === undefined) {
    if (origin !== undefined && originOf(resource) !== origin) {
      addStep(ctx, 'discovery', 'red', 'prm-resource-mismatch', title, `The metadata names resource ${resource}, but the client reached the server at ${origin}: such metadata must not be used${publicUrlHint(ctx, origin, originOf(resource))}.`, [r], { spec: 'RFC 9728 §3.3' });
      return false;
    }
    return true;
  }
  if (sameUrl(resource, expected)) return true;
  const res = safeUrl(resource);
  const exp = safeUrl(expected);
  if (res && exp && res.origin === exp.origin && isPathPrefix(res.pathname, exp.pathname)) {
    addStep(ctx, 'discovery', 'amber', 'prm-resource-parent', title,
      `The metadata names resource ${resource}, a parent of ${expected} that the client used: the official SDK accepts that, clients that compare exactly (as RFC 9728 asks) refuse it.`,
      [r], { spec: 'RFC 9728 §3.3' });
    return false;
  }
  addStep(ctx, 'discovery', 'red', 'prm-resource-mismatch', title,
    `The metadata names resource ${resource}, but the client reached the server at ${expected}: RFC 9728 says such metadata must not be used, and the official SDK stops with "Protected resource … does not match expected …"${publicUrlHint(ctx, exp?.origin, res?.origin)}.`,
    [r], { spec: 'RFC 9728 §3.3' });
  return false;
}

/** Authorization-server metadata (RFC 8414) or OpenID configuration. */
export function authorizationServerStep(ctx: FlowContext, r: DoorRecord): void {
  const title = titleOf(r);
  const isMetadata = (x: DoorRecord) => roleOf(ctx, x) === 'authorization-server-metadata' || roleOf(ctx, x) === 'openid-configuration';
  if (!ok(r)) {
    const next = recordsAfter(ctx, r, isMetadata);
    if (next.length > 0) {
      addStep(ctx, 'discovery', 'grey', 'asm-not-here', title, `Not here (${r.status ?? 'no answer'}); the client tried ${doorPathname(next[0]!.path)} next.`, [r], { spec: 'RFC 8414 §3.1, ' + MCP_AUTH });
    } else {
      addStep(ctx, 'discovery', 'red', 'no-authorization-server-metadata', title,
        `No authorization-server metadata: the last URL the client tried answered ${r.status ?? 'nothing'}, so it does not know the authorization and token endpoints or whether PKCE is supported.`,
        [r], { spec: 'RFC 8414 §3, ' + MCP_AUTH });
    }
    return;
  }
  const doc = jsonDocument(r.responseBody);
  if (!doc) {
    addStep(ctx, 'discovery', 'red', 'asm-not-json', title, notJson(r), [r], { spec: 'RFC 8414 §3.2' });
    return;
  }
  const problems = metadataProblems(ctx, r, doc);
  for (const p of problems) addStep(ctx, 'discovery', p.colour, p.check, title, p.reason, [r], { spec: p.spec });
  if (problems.length === 0) {
    const registration = stringField(doc, 'registration_endpoint');
    const cimd = doc.client_id_metadata_document_supported === true;
    const how = [registration ? `DCR at ${registration}` : undefined, cimd ? 'client-metadata documents (CIMD)' : undefined].filter(Boolean).join(' and ');
    addStep(ctx, 'discovery', 'green', 'asm', title, `Issuer ${stringField(doc, 'issuer')}, PKCE with S256, registration by ${how}.`, [r], { spec: 'RFC 8414 §2, ' + MCP_AUTH });
  }
}

interface Problem {
  colour: 'red' | 'amber';
  check: string;
  reason: string;
  spec: string;
}

function metadataProblems(ctx: FlowContext, r: DoorRecord, doc: JsonDocument): Problem[] {
  const out: Problem[] = [];
  const issuer = stringField(doc, 'issuer');
  const expected = expectedIssuer(r);
  if (issuer === undefined) {
    out.push({ colour: 'red', check: 'asm-no-issuer', reason: 'The metadata has no "issuer", which RFC 8414 requires.', spec: 'RFC 8414 §2' });
  } else if (expected !== undefined && !sameUrl(issuer, expected)) {
    out.push({ colour: 'red', check: 'asm-issuer-mismatch', reason: `The metadata's issuer is ${issuer}, but it was fetched for ${expected}: RFC 8414 says the client must not use it (the official SDK v1 does not check; stricter clients stop).`, spec: 'RFC 8414 §3.3' });
  }
  for (const name of ['authorization_endpoint', 'token_endpoint']) {
    if (stringField(doc, name) === undefined) out.push({ colour: 'red', check: 'asm-missing-endpoint', reason: `The metadata has no ${name}, so the client cannot run the authorization-code flow.`, spec: 'RFC 8414 §2' });
  }
  const responseTypes = stringList(doc, 'response_types_supported');
  if (!responseTypes?.includes('code')) {
    out.push({ colour: 'red', check: 'asm-no-code-response', reason: 'response_types_supported does not include "code": clients that check it (the official SDK does) refuse the server.', spec: 'RFC 8414 §2, OAuth 2.1 §4.1' });
  }
  const methods = stringList(doc, 'code_challenge_methods_supported');
  if (methods === undefined) {
    out.push({ colour: 'red', check: 'pkce-not-advertised', reason: 'code_challenge_methods_supported is missing, which means no PKCE: MCP clients must refuse to proceed (the official SDK v1 goes on anyway).', spec: MCP_AUTH + ' (Authorization Code Protection)' });
  } else if (!methods.includes('S256')) {
    out.push({ colour: 'red', check: 'no-s256', reason: `code_challenge_methods_supported is [${methods.join(', ')}], without S256: MCP clients must refuse (the official SDK stops with "does not support code challenge method S256").`, spec: MCP_AUTH + ' (Authorization Code Protection), OAuth 2.1 §4.1.1' });
  }
  const canRegister = stringField(doc, 'registration_endpoint') !== undefined || doc.client_id_metadata_document_supported === true;
  if (!canRegister) {
    const wentOn = recordsAfter(ctx, r, (x) => roleOf(ctx, x) === 'token' || roleOf(ctx, x) === 'authorization').length > 0;
    out.push(
      wentOn
        ? { colour: 'amber', check: 'no-registration', reason: 'Neither a registration_endpoint nor client-metadata-document support: only clients with a pre-registered client id can sign in (this one had one).', spec: MCP_AUTH + ' (Client Registration Approaches)' }
        : { colour: 'red', check: 'no-registration', reason: 'Neither a registration_endpoint (DCR) nor client-metadata-document support (CIMD): a client without a pre-registered client id has no way to get one.', spec: MCP_AUTH + ' (Client Registration Approaches)' },
    );
  }
  return out;
}

/** The issuer the metadata URL was built from (RFC 8414 §3.1; OIDC appends instead). */
function expectedIssuer(r: DoorRecord): string | undefined {
  const origin = requestedOrigin(r);
  if (origin === undefined) return undefined;
  const path = doorPathname(r.path);
  if (path.startsWith(ASM)) return origin + path.slice(ASM.length);
  if (path.startsWith(OIDC)) return origin + path.slice(OIDC.length);
  if (path.endsWith(OIDC)) return origin + path.slice(0, -OIDC.length);
  return undefined;
}

export function serverCardStep(ctx: FlowContext, r: DoorRecord): void {
  const found = ok(r) && isJsonResponse(r);
  addStep(ctx, 'discovery', 'grey', 'server-card', titleOf(r), found ? 'The client read the MCP server card.' : `The client looked for an MCP server card (${r.status ?? 'no answer'}); it is optional.`, [r]);
}

function notJson(r: DoorRecord): string {
  const type = r.responseHeaders['content-type'] ?? 'no content type';
  if (r.responseBody?.truncated) return `The document is larger than mcpscope keeps (${r.responseBody.size} bytes), so it was not checked.`;
  return `The answer is not a JSON object (${type}): clients cannot read it as metadata.`;
}


/** Whether `parent` is `child` or a path-segment prefix of it (`/a` of `/a/b`, not of `/ab`). */
function isPathPrefix(parent: string, child: string): boolean {
  const p = parent.replace(/\/+$/, '');
  return p === '' || child === p || child.startsWith(p + '/');
}

/**
 * The `--public-url` case: the documents name the tap's public URL (which mcpscope rewrites them
 * to), but the client came by another address, e.g. localhost. Only said when the facts know the
 * public URL, so a server naming some other host is never mistaken for it.
 */
function publicUrlHint(ctx: FlowContext, used: string | undefined, named: string | undefined): string {
  const publicOrigin = ctx.facts.publicOrigin;
  if (!used || !named || publicOrigin === undefined || named !== publicOrigin || used === named) return '';
  return ` (with --public-url, mcpscope names ${named} in OAuth metadata: connect the client through that URL, not ${used})`;
}
