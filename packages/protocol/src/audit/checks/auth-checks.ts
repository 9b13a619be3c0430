/**
 * Connection and auth checks over the door records (every HTTP request at the tap): what a host
 * needs to discover the authorization server, register, and sign the user in.
 */
import { bearerChallenge } from '../../door/www-authenticate.js';
import { responseHeader } from '../../door/door-record.js';
import type { AuditCheck, AuditContextLike, CheckOutcome, EvidenceLink, Finding } from '../audit-types.js';
import { docs, fieldReport, notSeen, outcome, spec } from '../check-kit.js';
import { authorizationServerDocuments, mcpUrlsReached, protectedResourceDocuments, type DoorDocument } from './door-documents.js';

const NEEDS_AS = 'the authorization-server metadata fetched through the tap (a host signing in, or `mcpscope audit --target` against an OAuth-protected server)';

/** A finding's link to a door document and the JSON path inside its body. */
function at(document: DoorDocument, path: string): EvidenceLink {
  return { doorRecordId: document.record.id, path };
}

/**
 * The shape of every check on the authorization server's metadata: each document fetched through
 * the tap is judged on its own; without one the check is not seen.
 */
function perAuthorizationServer(context: AuditContextLike, judge: (document: DoorDocument) => Finding[], passed: string): CheckOutcome {
  const documents = authorizationServerDocuments(context.evidence.door);
  if (documents.length === 0) return notSeen('no authorization-server metadata fetched through the tap');
  return outcome(documents.flatMap(judge), passed);
}

const challenge: AuditCheck = {
  id: 'auth-401-challenge',
  title: 'A 401 carries WWW-Authenticate with resource_metadata',
  group: 'connection',
  hosts: ['chatgpt', 'claude', 'claude-code', 'cursor', 'vscode'],
  help: 'A host that gets 401 from the MCP endpoint looks for the protected-resource metadata in the WWW-Authenticate header\'s resource_metadata parameter first (MCP 2025-11-25 authorization). A 401 with no WWW-Authenticate at all breaks RFC 9110 and most hosts report "cannot connect" without ever starting the sign-in.',
  fix: 'Answer 401 with WWW-Authenticate: Bearer resource_metadata="https://<server>/.well-known/oauth-protected-resource".',
  needs: 'a request without a token to an OAuth-protected server, through the tap',
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#protected-resource-metadata-discovery-requirements'),
  evaluate(context) {
    const denied = context.evidence.door.filter((r) => r.status === 401 && r.mcp);
    if (denied.length === 0) return notSeen(context.evidence.door.length ? 'no 401 from the MCP endpoint (the server may not require auth)' : 'no HTTP records in the capture');
    const findings: Finding[] = [];
    for (const r of denied) {
      const header = responseHeader(r, 'www-authenticate');
      const evidence = { doorRecordId: r.id, path: 'responseHeaders["www-authenticate"]' };
      if (!header) findings.push({ verdict: 'fail', message: `${r.method} ${r.path} got 401 without WWW-Authenticate`, evidence });
      else if (!bearerChallenge(header)?.params.resource_metadata) findings.push({ verdict: 'warn', message: `${r.method} ${r.path} got 401 with WWW-Authenticate but no resource_metadata (hosts fall back to the well-known URL)`, evidence });
    }
    return outcome(findings, `${denied.length} challenges name their metadata`);
  },
};

const resourceMatches: AuditCheck = {
  id: 'auth-resource-matches',
  title: 'Protected-resource metadata names the URL the host reached',
  group: 'connection',
  hosts: ['chatgpt', 'claude', 'claude-code', 'cursor', 'vscode'],
  help: 'RFC 9728 §3.3: a client must not use protected-resource metadata whose resource differs from the URL it derived it from. The SDK clients refuse it ("Protected resource … does not match"), so a server behind a tunnel or a proxy that advertises its internal URL cannot be signed in to.',
  fix: 'Make the metadata\'s resource the public MCP URL the host was given (scheme, host and path).',
  needs: 'the protected-resource metadata fetched through the tap and a request to the MCP endpoint',
  source: spec('https://www.rfc-editor.org/rfc/rfc9728#section-3.3'),
  evaluate(context) {
    const documents = protectedResourceDocuments(context.evidence.door);
    const reached = mcpUrlsReached(context.evidence.door);
    if (documents.length === 0 || reached.length === 0) return notSeen(documents.length ? 'no request to the MCP endpoint with a Host' : 'no protected-resource metadata fetched through the tap');
    const findings: Finding[] = [];
    for (const d of documents) {
      const resource = typeof d.body.resource === 'string' ? d.body.resource : undefined;
      const evidence = at(d, '$.resource');
      if (!resource) findings.push({ verdict: 'fail', message: `${d.record.path} has no resource`, evidence });
      else if (!reached.some((u) => sameResource(resource, u))) findings.push({ verdict: 'fail', message: `resource is ${resource}, but hosts reached ${reached.join(', ')}`, evidence });
    }
    return outcome(findings, `resource matches ${reached[0]}`);
  },
};

/** RFC 9728 compares the resource with the URL the client used; a trailing slash is the same resource to the SDK. */
function sameResource(resource: string, reached: string): boolean {
  const strip = (u: string) => u.replace(/\/+$/, '');
  return strip(resource) === strip(reached) || strip(reached).startsWith(strip(resource) + '/');
}

const pkce: AuditCheck = {
  id: 'auth-pkce-s256',
  title: 'The authorization server advertises PKCE S256',
  group: 'connection',
  hosts: ['chatgpt', 'claude', 'claude-code', 'cursor', 'vscode'],
  help: 'MCP clients MUST use PKCE with S256 and MUST refuse to proceed when the authorization-server metadata does not list S256 in code_challenge_methods_supported.',
  fix: 'Add "S256" to code_challenge_methods_supported in the authorization-server metadata.',
  needs: NEEDS_AS,
  source: spec('https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-code-protection'),
  evaluate(context) {
    return perAuthorizationServer(
      context,
      (d) => (Array.isArray(d.body.code_challenge_methods_supported) && d.body.code_challenge_methods_supported.includes('S256') ? [] : [{ verdict: 'fail', message: `${d.record.path} does not list S256`, evidence: at(d, '$.code_challenge_methods_supported') }]),
      'S256 advertised',
    );
  },
};

const registration: AuditCheck = {
  id: 'auth-client-registration',
  title: 'Hosts can register: a registration endpoint or client-metadata documents',
  group: 'connection',
  hosts: ['chatgpt', 'claude', 'claude-code', 'cursor', 'vscode'],
  help: 'A host with no pre-registered client id registers itself: with a Client ID Metadata Document (client_id_metadata_document_supported: true; ChatGPT uses one as its client id) or Dynamic Client Registration (registration_endpoint). Metadata with neither leaves the host nothing to sign in with.',
  fix: 'Set client_id_metadata_document_supported: true (preferred) or publish a registration_endpoint.',
  needs: NEEDS_AS,
  source: docs('https://developers.openai.com/apps-sdk/build/auth'),
  evaluate(context) {
    return perAuthorizationServer(
      context,
      (d) => {
        const cimd = d.body.client_id_metadata_document_supported === true;
        const dcr = typeof d.body.registration_endpoint === 'string';
        if (!cimd && !dcr) return [{ verdict: 'fail', message: `${d.record.path} offers neither CIMD nor a registration_endpoint`, evidence: at(d, '$') }];
        if (!cimd) return [{ verdict: 'warn', message: `${d.record.path} has DCR only; ChatGPT prefers a CIMD client id (client_id_metadata_document_supported)`, evidence: at(d, '$.client_id_metadata_document_supported'), hosts: ['chatgpt'] }];
        return [];
      },
      'hosts can register',
    );
  },
};

const issuer: AuditCheck = {
  id: 'auth-iss-parameter',
  title: 'The authorization server returns iss on the callback (RFC 9207)',
  group: 'connection',
  hosts: ['chatgpt', 'claude', 'vscode'],
  help: 'RFC 9207 lets a client check which authorization server answered; MCP 2026-07-28 requires clients to check it, and servers announce it with authorization_response_iss_parameter_supported. ChatGPT is reported to use its single stable callback URL only for servers that send iss.',
  fix: 'Return iss on the authorization response and set authorization_response_iss_parameter_supported: true.',
  needs: NEEDS_AS,
  source: spec('https://www.rfc-editor.org/rfc/rfc9207'),
  evaluate(context) {
    return perAuthorizationServer(
      context,
      (d) => (d.body.authorization_response_iss_parameter_supported === true ? [] : [{ verdict: 'warn', message: `${d.record.path} does not announce iss on the authorization response`, evidence: at(d, '$.authorization_response_iss_parameter_supported') }]),
      'iss announced',
    );
  },
};

const challengeFile: AuditCheck = {
  id: 'openai-apps-challenge',
  title: 'The domain-verification file is served (ChatGPT submission)',
  group: 'connection',
  hosts: ['chatgpt'],
  help: 'Submitting an app asks you to prove control of the MCP domain by serving the portal\'s token at /.well-known/openai-apps-challenge. The audit found this in developers\' submission notes, not in the docs it read, so it rests on field reports. Checked with --submit.',
  fix: 'Serve the token the portal shows, as text/plain, at https://<mcp host>/.well-known/openai-apps-challenge.',
  needs: 'a GET of /.well-known/openai-apps-challenge through the tap (`mcpscope audit --target URL --submit` asks for it)',
  source: fieldReport('https://developers.openai.com/apps-sdk/deploy/submission'),
  evaluate(context) {
    if (!context.options.submitting) return { verdict: 'pass', findings: [], summary: 'only checked with --submit' };
    const asked = context.evidence.door.filter((r) => r.path.startsWith('/.well-known/openai-apps-challenge'));
    if (asked.length === 0) return notSeen('no request for /.well-known/openai-apps-challenge');
    const last = asked[asked.length - 1]!;
    if (last.status === 200 && (last.responseBytes > 0 || (last.responseBody?.text.length ?? 0) > 0)) return { verdict: 'pass', findings: [], summary: 'served' };
    return outcome([{ verdict: 'fail', message: `/.well-known/openai-apps-challenge answered ${last.status ?? 'nothing'}`, evidence: { doorRecordId: last.id, path: 'status' } }], 'served');
  },
};

export const AUTH_CHECKS: readonly AuditCheck[] = [challenge, resourceMatches, pkce, registration, issuer, challengeFile];
