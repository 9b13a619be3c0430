/**
 * OAuth checks after discovery: client registration (RFC 7591, or a client-metadata document),
 * the authorization request (OAuth 2.1 §4.1.1 with PKCE S256, RFC 8707 `resource`), and the token
 * request and answer (OAuth 2.1 §4.1.3, RFC 6749 §5.1–5.2). A tap sees the authorization request
 * only when the user's browser goes through it, which it usually does not: that gap is a step too.
 */
import { formFields, jsonDocument, oauthError, responseType, stringField } from '../door-bodies.js';
import { doorQuery, type DoorRecord } from '../door-record.js';
import { addStep, ok, originOf, safeUrl, roleOf, sameUrl, titleOf, type FlowContext } from './flow-context.js';

const MCP_AUTH = 'MCP 2025-11-25 Authorization';

export function registrationStep(ctx: FlowContext, r: DoorRecord): void {
  const title = titleOf(r);
  if (!ok(r)) {
    const err = oauthError(r);
    addStep(ctx, 'registration', 'red', 'registration-error', title,
      err ? `Registration refused: ${err.error}${err.description ? ` — ${err.description}` : ''}.` : `Registration failed with ${r.status ?? 'no answer'}.`,
      [r], { spec: 'RFC 7591 §3.2.2' });
    return;
  }
  const doc = jsonDocument(r.responseBody);
  const clientId = stringField(doc, 'client_id');
  if (!clientId) {
    addStep(ctx, 'registration', 'red', 'registration-no-client-id', title, 'The registration answer has no client_id, so the client has nothing to sign in with.', [r], { spec: 'RFC 7591 §3.2.1' });
    return;
  }
  const name = stringField(jsonDocument(r.requestBody), 'client_name');
  const status = r.status === 201 ? '' : ` (answered ${r.status}; RFC 7591 says 201 Created, most clients accept any 2xx)`;
  addStep(ctx, 'registration', 'green', 'registration', title, `Registered${name ? ` "${name}"` : ''} by DCR as client ${clientId}${status}.`, [r], { spec: 'RFC 7591 §3' });
}

export function authorizationStep(ctx: FlowContext, r: DoorRecord): void {
  const title = titleOf(r);
  const q = doorQuery(r.path);
  const problems: [colour: 'red' | 'amber', check: string, reason: string, spec: string][] = [];
  if (q.get('response_type') !== 'code') problems.push(['red', 'authorize-response-type', `response_type is "${q.get('response_type') ?? ''}", not "code".`, 'OAuth 2.1 §4.1.1']);
  if (!q.get('code_challenge')) problems.push(['red', 'authorize-no-pkce', 'The authorization request has no code_challenge: no PKCE, which OAuth 2.1 and MCP require.', 'OAuth 2.1 §4.1.1, ' + MCP_AUTH]);
  else if (q.get('code_challenge_method') !== 'S256') problems.push(['red', 'authorize-not-s256', `code_challenge_method is "${q.get('code_challenge_method') ?? 'plain (absent)'}", not S256.`, 'OAuth 2.1 §4.1.1, ' + MCP_AUTH]);
  const resource = q.get('resource');
  if (!resource) problems.push(['amber', 'authorize-no-resource', 'The authorization request has no resource parameter, which MCP clients must send (RFC 8707): the token may not be meant for this server.', 'RFC 8707 §2, ' + MCP_AUTH]);
  else if (ctx.mcpUrl && !sameUrl(resource, ctx.mcpUrl)) problems.push(['amber', 'authorize-resource-mismatch', `resource=${resource} is not the MCP URL the client used (${ctx.mcpUrl}).`, 'RFC 8707 §2']);
  for (const [colour, check, reason, spec] of problems) addStep(ctx, 'authorization', colour, check, title, reason, [r], { spec });

  const location = r.responseHeaders.location;
  const back = location !== undefined ? safeUrl(location) : undefined;
  const error = back?.searchParams.get('error');
  if (error) {
    const description = back?.searchParams.get('error_description');
    addStep(ctx, 'authorization', 'red', 'authorization-error', title, `The authorization server sent the user back with ${error}${description ? ` — ${description}` : ''}.`, [r], { spec: 'RFC 6749 §4.1.2.1' });
  } else if (back?.searchParams.has('code')) {
    const iss = back.searchParams.get('iss');
    addStep(ctx, 'authorization', problems.length ? 'amber' : 'green', 'authorization', title, `The user was sent back to ${back.origin} with an authorization code${iss ? ` (iss=${iss})` : ''}.`, [r], { spec: 'OAuth 2.1 §4.1.2' });
  } else if (ok(r) && responseType(r) === 'text/html') {
    addStep(ctx, 'authorization', 'grey', 'authorization-page', title, 'The authorization server showed a page (sign-in or consent); its answer goes to the browser, not through the tap.', [r]);
  } else if (!ok(r) && !(r.status !== undefined && r.status >= 300 && r.status < 400)) {
    addStep(ctx, 'authorization', 'red', 'authorization-failed', title, `The authorization endpoint answered ${r.status ?? 'nothing'}.`, [r], { spec: 'OAuth 2.1 §4.1.2.1' });
  }
}

/** Before a token request that no authorization request (through the tap) preceded. */
export function authorizationNotSeen(ctx: FlowContext, token: DoorRecord): void {
  const seen = ctx.records.some((x) => x.id < token.id && roleOf(ctx, x) === 'authorization');
  if (seen || formFields(token.requestBody).get('grant_type') !== 'authorization_code') return;
  addStep(ctx, 'authorization', 'grey', 'authorization-not-seen', 'Sign-in at the authorization server',
    "Not seen by the tap: the user's browser goes to the authorization server directly (a tap only sees what passes it); the code it returned is what the token request below exchanges.",
    []);
}

export function tokenStep(ctx: FlowContext, r: DoorRecord): void {
  const title = titleOf(r);
  const form = formFields(r.requestBody);
  const grant = form.get('grant_type') ?? 'unknown grant';
  const requestType = r.requestHeaders['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (requestType && requestType !== 'application/x-www-form-urlencoded') {
    addStep(ctx, 'token', 'amber', 'token-not-form', title, `The token request is ${requestType}; OAuth token requests are form-encoded and many servers reject anything else.`, [r], { spec: 'RFC 6749 §4.1.3' });
  }
  if (r.requestBody?.truncated) {
    addStep(ctx, 'token', 'amber', 'token-request-large', title, `The token request body was ${r.requestBody.size} bytes (mcpscope kept the first part); a token request is a few hundred.`, [r]);
  }
  if (grant === 'authorization_code' && !form.get('code_verifier')) {
    addStep(ctx, 'token', 'red', 'token-no-code-verifier', title, 'The code exchange sends no code_verifier: without it PKCE protects nothing, and servers that require PKCE refuse.', [r], { spec: 'OAuth 2.1 §4.1.3, ' + MCP_AUTH });
  }
  const resource = form.get('resource');
  if ((grant === 'authorization_code' || grant === 'refresh_token') && !resource) {
    addStep(ctx, 'token', 'amber', 'token-no-resource', title, 'The token request has no resource parameter, which MCP clients must send (RFC 8707), so the token may be minted for another audience.', [r], { spec: 'RFC 8707 §2, ' + MCP_AUTH });
  } else if (resource && ctx.mcpUrl && !sameUrl(resource, ctx.mcpUrl)) {
    addStep(ctx, 'token', 'amber', 'token-resource-mismatch', title, `resource=${resource} is not the MCP URL the client used (${ctx.mcpUrl}): a server that checks the token's audience will refuse it.`, [r], { spec: 'RFC 8707 §2' });
  }

  const err = oauthError(r);
  if (!ok(r) || err) {
    addStep(ctx, 'token', 'red', 'token-error', title,
      err ? `The token request (${grant}) was refused: ${err.error}${err.description ? ` — ${err.description}` : ''}.` : `The token request (${grant}) failed with ${r.status ?? 'no answer'}.`,
      [r], { spec: 'RFC 6749 §5.2' });
    return;
  }
  const doc = jsonDocument(r.responseBody);
  if (!doc || stringField(doc, 'access_token') === undefined) {
    addStep(ctx, 'token', 'red', 'token-no-access-token', title, 'The token answer has no access_token (or is not JSON).', [r], { spec: 'RFC 6749 §5.1' });
    return;
  }
  const type = stringField(doc, 'token_type');
  const expires = typeof doc.expires_in === 'number' ? `, expires in ${doc.expires_in} s` : '';
  const refresh = stringField(doc, 'refresh_token') !== undefined ? ', with a refresh token' : '';
  const scope = stringField(doc, 'scope') ? `, scope "${stringField(doc, 'scope')}"` : '';
  const clientId = form.get('client_id');
  const cimd = clientId && originOf(clientId)?.startsWith('https:') ? ` The client id is a client-metadata document (${clientId}).` : '';
  if (type?.toLowerCase() !== 'bearer') {
    addStep(ctx, 'token', 'amber', 'token-type', title, `A token was issued, but of type "${type ?? 'none'}": MCP clients send Bearer tokens.`, [r], { spec: 'RFC 6749 §5.1' });
    return;
  }
  addStep(ctx, 'token', 'green', 'token', title, `Token issued for ${grant}: Bearer${expires}${refresh}${scope}.${cimd}`, [r], { spec: 'RFC 6749 §5.1' });
}

/** Before the first request that carries a token when no token request passed the tap. */
export function tokenNotSeen(ctx: FlowContext, first: DoorRecord): void {
  if (ctx.records.some((x) => x.id < first.id && roleOf(ctx, x) === 'token')) return;
  addStep(ctx, 'token', 'grey', 'token-not-seen', 'Token obtained elsewhere',
    'The client sent a Bearer token that it did not get through the tap: registration, sign-in and token exchange went to the authorization server directly (or the token was configured by hand).',
    []);
}
