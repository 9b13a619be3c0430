/**
 * Builds each client's connection flow: its records in arrival order, each turned into steps by
 * the check for its role (discovery-steps, oauth-steps, mcp-steps), plus the steps a tap cannot
 * see (the browser's sign-in), and a verdict: connected, failed at a phase, probed and never
 * connected, or not (yet) connected. Pure: records and MCP facts in, a story out.
 */
import { clientLabel } from '../../session/session-tracker.js';
import { isSessionlessKey } from '../../session/session-summary.js';
import { doorRole, probeReason, type DoorRole } from '../door-classify.js';
import { groupDoorClients, type DoorClient, type GroupOptions } from '../door-clients.js';
import type { DoorRecord } from '../door-record.js';
import { authorizationServerStep, challengeStep, protectedResourceStep, serverCardStep } from './discovery-steps.js';
import { addStep, flowContext, roleOf, titleOf, type FlowContext } from './flow-context.js';
import { NO_FACTS, PHASE_LABELS, type ConnectionFlow, type FlowFacts, type FlowPhase, type FlowVerdict } from './flow-types.js';
import { corsStep, guardStep, mcpStep, notMcpEndpointStep, probeStep, upstreamFailedStep } from './mcp-steps.js';
import { newMcpState, type McpState } from './mcp-fold.js';
import { authorizationNotSeen, authorizationStep, registrationStep, tokenNotSeen, tokenStep } from './oauth-steps.js';

/** One flow per client; a host's conversation (the deriver's, from `facts`) is one client. */
export function buildConnectionFlows(records: readonly DoorRecord[], facts: FlowFacts = NO_FACTS, options: GroupOptions = {}): ConnectionFlow[] {
  const grouping: GroupOptions = { conversationOf: (r) => recordConversation(r, facts), ...options };
  return groupDoorClients(records, grouping).map((client) => buildConnectionFlow(client, facts));
}

/**
 * The conversation an MCP request's traffic is in: its session's, or, for a POST without a session
 * of its own (a server/discover probe before initialize, the stateless era), that of the exchange
 * it opened. Undefined for everything else — OAuth, probes, a GET without a session (whatever
 * error body it got back is no JSON-RPC request of the client's) —: those join by identity.
 */
export function recordConversation(r: DoorRecord, facts: FlowFacts): string | undefined {
  if (!r.mcp || r.sessionKey === undefined) return undefined;
  if (!isSessionlessKey(r.sessionKey)) return facts.session(r.sessionKey)?.conversationKey;
  if (r.method !== 'POST') return undefined;
  for (const seq of r.frameSeqs ?? []) {
    const key = facts.exchange(String(seq))?.conversation;
    if (key !== undefined) return key;
  }
  return undefined;
}

export function buildConnectionFlow(client: DoorClient, facts: FlowFacts = NO_FACTS): ConnectionFlow {
  const ctx = flowContext(client, facts);
  const mcp = newMcpState();
  let probes = 0;
  let corsShown = false;
  let tokenUsed = false;
  for (const r of ctx.records) {
    const role = roleOf(ctx, r);
    const phase = role === 'preflight' ? phaseOf(targetRole(ctx, r)) : phaseOf(role);
    if (r.answer === 'refused') {
      guardStep(ctx, r, phase);
      continue;
    }
    if (r.answer === 'upstream-failed') {
      upstreamFailedStep(ctx, r, phase);
      continue;
    }
    if (role === 'preflight') {
      if (!corsStep(ctx, r, phase, true) && !corsShown) {
        corsShown = true;
        addStep(ctx, phase, 'green', 'cors', titleOf(r), `The preflight allows ${r.requestHeaders.origin}: a browser-based client may send its requests.`, [r], { spec: 'Fetch standard (CORS)' });
      }
      continue;
    }
    const probe = probeReason(r, role);
    if (probe) {
      probes++;
      probeStep(ctx, r, probe);
      continue;
    }
    corsStep(ctx, r, phase, false);
    if (r.requestHeaders.authorization !== undefined && role === 'mcp' && !tokenUsed) {
      tokenUsed = true;
      if (r.status !== 401) tokenNotSeen(ctx, r);
    }
    recordSteps(ctx, r, role, mcp);
  }
  const flow: ConnectionFlow = {
    clientKey: client.key,
    label: labelOf(client, facts),
    address: client.address,
    firstTs: client.firstTs,
    lastTs: client.lastTs,
    joinedBy: client.joinedBy,
    sessions: client.sessionIds.length,
    verdict: verdictOf(ctx, probes),
    steps: ctx.steps,
    probes,
    records: client.records.length,
  };
  if (client.userAgent !== undefined) flow.userAgent = client.userAgent;
  if (client.conversationKey !== undefined) flow.conversationKey = client.conversationKey;
  return flow;
}

function recordSteps(ctx: FlowContext, r: DoorRecord, role: DoorRole, mcp: McpState): void {
  switch (role) {
    case 'mcp':
      if (r.status === 401 || r.status === 403) challengeStep(ctx, r);
      else mcpStep(ctx, r, mcp);
      return;
    case 'protected-resource-metadata':
      return protectedResourceStep(ctx, r);
    case 'authorization-server-metadata':
    case 'openid-configuration':
      return authorizationServerStep(ctx, r);
    case 'server-card':
      return serverCardStep(ctx, r);
    case 'registration':
      return registrationStep(ctx, r);
    case 'authorization':
      return authorizationStep(ctx, r);
    case 'token':
      authorizationNotSeen(ctx, r);
      return tokenStep(ctx, r);
    case 'oauth-other':
      addStep(ctx, 'token', 'grey', 'oauth-other', titleOf(r), 'Another OAuth endpoint (revocation, introspection, keys, user info or a callback).', [r]);
      return;
    case 'other':
    case 'asset':
    case 'preflight':
      if (role === 'other' && r.method === 'POST') return notMcpEndpointStep(ctx, r);
      addStep(ctx, 'probe', r.status !== undefined && r.status >= 500 ? 'amber' : 'grey', 'other-path', titleOf(r), 'A request to a path that is neither the MCP endpoint nor an OAuth endpoint; the tap forwards it as it is.', [r]);
  }
}

export function phaseOf(role: DoorRole): FlowPhase {
  switch (role) {
    case 'mcp':
      return 'mcp';
    case 'protected-resource-metadata':
    case 'authorization-server-metadata':
    case 'openid-configuration':
    case 'server-card':
      return 'discovery';
    case 'registration':
      return 'registration';
    case 'authorization':
      return 'authorization';
    case 'token':
    case 'oauth-other':
      return 'token';
    default:
      return 'probe';
  }
}

/** The role of the request a preflight asks permission for. */
function targetRole(ctx: FlowContext, r: DoorRecord): DoorRole {
  const method = r.requestHeaders['access-control-request-method'] ?? 'GET';
  const { origin: _origin, ...headers } = r.requestHeaders;
  return doorRole({ ...r, method, requestHeaders: headers, answer: 'upstream' }, ctx.learned);
}

function verdictOf(ctx: FlowContext, probes: number): FlowVerdict {
  const steps = ctx.steps;
  const reds = steps.filter((s) => s.colour === 'red');
  const initialize = steps.find((s) => s.check === 'initialize');
  const connected = initialize !== undefined || steps.some((s) => (s.check === 'mcp-calls' || s.check === 'tools-list') && s.colour !== 'red');
  if (connected) {
    const version = initialize?.title.replace(/^initialize → /, '').replace(/ ×\d+$/, '');
    const problems = reds.length > 0 ? `, with ${reds.length} problem${reds.length === 1 ? '' : 's'} (first: ${reds[0]!.title})` : '';
    return { kind: 'connected', sentence: `connected${version ? ` (${version})` : ''}${problems}` };
  }
  const postedMcp = ctx.records.some((r) => r.mcp && r.method === 'POST');
  const preflights = ctx.records.filter((r) => roleOf(ctx, r) === 'preflight').length;
  if (!postedMcp && probes > 0 && probes + preflights === ctx.records.length) return { kind: 'probed', sentence: 'probed, never connected' };
  // A POST to a path that is not the MCP endpoint is the first thing to fix: what followed (discovery
  // probes of the wrong origin, their 404s and 406s) is the client looking for a server it missed.
  const wrongPath = steps.find((s) => s.check === 'not-mcp-endpoint');
  if (wrongPath) return { kind: 'failed', sentence: wrongPath.reason };
  const first = reds[0];
  if (first) return { kind: 'failed', sentence: `failed at ${PHASE_LABELS[first.phase].toLowerCase()}: ${first.title} (the red step says why)` };
  const last = steps[steps.length - 1];
  return { kind: 'incomplete', sentence: last ? `not connected (yet): the last step was ${last.title}` : 'not connected (yet)' };
}

function labelOf(client: DoorClient, facts: FlowFacts): string {
  for (const key of client.sessionKeys) {
    const label = facts.session(key)?.clientLabel;
    if (label) return label;
  }
  return clientLabel(client.userAgent !== undefined ? { userAgent: client.userAgent } : {}) ?? client.address;
}
