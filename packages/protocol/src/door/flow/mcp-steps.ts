/**
 * The MCP part of the story (the era probe, initialize with the revision agreed, tools/list, the
 * calls; folded by mcp-fold so a long session or a churning host stays a few lines), and what can go wrong at the
 * door before MCP: probes, an HTML page or a redirect where the MCP endpoint should be, the tap's
 * guard refusing a Host or Origin, an unreachable upstream, and CORS answers a browser refuses.
 */
import type { ExchangeSummary } from '../../model/exchange.js';
import { PROBE_LABELS, type ProbeReason } from '../door-classify.js';
import { responseType } from '../door-bodies.js';
import { doorPathname, requestedOrigin, type DoorRecord } from '../door-record.js';
import { addStep, isLoopbackHost, ok, titleOf, type FlowContext } from './flow-context.js';
import type { FlowPhase } from './flow-types.js';
import { foldCall, repeatStep, type McpState } from './mcp-fold.js';

const STREAMABLE = 'MCP Streamable HTTP';
const DISCOVER = 'MCP 2026-07-28 (server/discover)';
/** Refused probes from one client before the story calls it a loop (the discover-probe-loop diagnostic's count). */
const PROBE_LOOP = 3;

export function probeStep(ctx: FlowContext, r: DoorRecord, reason: ProbeReason): void {
  const title = titleOf(r);
  const answer = r.mcp ? htmlOrRedirect(r) : undefined;
  if (answer) return void badAnswer(ctx, r, 'probe', answer);
  addStep(ctx, 'probe', 'grey', 'probe', title, `A probe (${PROBE_LABELS[reason]}), not MCP traffic: hosts and crawlers send these to see what is there.`, [r], { probe: reason });
}

/** An MCP-endpoint request that is not a probe and not a 401/403 (those are discovery). */
export function mcpStep(ctx: FlowContext, r: DoorRecord, state: McpState): void {
  const title = titleOf(r);
  const answer = htmlOrRedirect(r);
  if (answer) return void badAnswer(ctx, r, 'mcp', answer);
  if (r.method === 'GET') {
    if (r.status === 405) repeatStep(ctx, state, r, { phase: 'mcp', colour: 'grey', check: 'mcp-no-stream', title, reason: 'The server offers no stream for server-initiated messages (405), which MCP allows.', spec: STREAMABLE });
    else if (ok(r)) repeatStep(ctx, state, r, { phase: 'mcp', colour: 'green', check: 'mcp-stream', title, reason: 'The client opened the stream for server-initiated messages.', spec: STREAMABLE });
    else httpError(ctx, r);
    return;
  }
  if (r.method === 'DELETE') {
    const reason = ok(r) || r.status === 405 ? 'The client ended its session.' : `The client tried to end its session (${r.status ?? 'no answer'}).`;
    repeatStep(ctx, state, r, { phase: 'mcp', colour: 'grey', check: 'mcp-session-end', title, reason, spec: STREAMABLE });
    return;
  }
  if (r.status === 404 && r.requestHeaders['mcp-session-id'] !== undefined) {
    repeatStep(ctx, state, r, { phase: 'mcp', colour: 'amber', check: 'session-expired', title, reason: 'The server no longer knows this session (404): the client has to initialize a new one.', spec: STREAMABLE });
    return;
  }
  const exchanges = exchangesOf(ctx, r);
  if (exchanges.length > 0 && exchanges.every((ex) => ex.method === 'server/discover')) {
    for (const ex of exchanges) discoverStep(ctx, r, ex, state);
    return;
  }
  if (r.status !== undefined && r.status >= 400 && exchanges.every((ex) => ex.status !== 'ok')) return httpError(ctx, r, exchanges);
  for (const ex of exchanges) exchangeStep(ctx, r, ex, state);
  if (exchanges.length > 0 || r.status === 202) return;
  // No exchange known for it (retention removed it, or its body was not JSON-RPC).
  if (r.status === undefined) httpError(ctx, r);
  else foldCall(ctx, state, r, 'MCP request', false, undefined);
}

/**
 * A `server/discover` probe: a client that speaks both eras asks for the stateless 2026-07-28
 * revision first. Refused by a server of an older revision, it falls back to initialize, which is
 * normal once; refused again and again, the client does not remember the era it found.
 */
function discoverStep(ctx: FlowContext, r: DoorRecord, ex: ExchangeSummary, state: McpState): void {
  const failed = ex.status !== 'ok' && ex.status !== 'pending';
  if (!failed) {
    repeatStep(ctx, state, r, { phase: 'mcp', colour: 'green', check: 'era-probe', title: 'server/discover → ok', reason: 'The server answered the 2026-07-28 probe: both sides speak the stateless revision.', spec: DISCOVER, exchanges: [ex.id] });
    return;
  }
  const answer = r.status !== undefined && r.status >= 400 ? `HTTP ${r.status}` : ex.status.replace('_', ' ');
  const why = ex.errorMessage ? ` (${ex.errorMessage})` : '';
  const reason = `The client probed for the stateless 2026-07-28 revision and the server refused${why}: it speaks an older revision, and a client that speaks both falls back to initialize.`;
  repeatStep(ctx, state, r, { phase: 'mcp', colour: 'grey', check: 'era-probe', title: `server/discover → ${answer}`, reason, spec: DISCOVER, exchanges: [ex.id] }, (step, count) => {
    if (count < PROBE_LOOP) return;
    step.colour = 'amber';
    step.reason = `The client probed for the 2026-07-28 revision ${count} times and was refused each time${why}: it does not remember the era it found for this server, so every session costs one round trip more (the timeline's discover-probe-loop diagnostic).`;
  });
}

function exchangeStep(ctx: FlowContext, r: DoorRecord, ex: ExchangeSummary, state: McpState): void {
  const method = ex.method ?? '(invalid)';
  if (ex.kind === 'notification') return;
  const failed = ex.status !== 'ok' && ex.status !== 'pending';
  const why = ex.errorMessage ? `: ${ex.errorMessage}` : '';
  if (method === 'initialize') {
    const session = ctx.facts.session(ex.sessionKey);
    const version = session?.protocolVersion;
    const server = typeof session?.serverInfo?.name === 'string' ? ` with ${session.serverInfo.name}` : '';
    if (failed) {
      addStep(ctx, 'mcp', 'red', 'initialize-failed', `initialize → ${ex.status.replace('_', ' ')}`, `The server refused initialize${why}.`, [r], { exchanges: [ex.id], spec: 'MCP Lifecycle' });
      return;
    }
    const reason = `Connected${server}${version ? `, protocol ${version} agreed` : ''}.`;
    repeatStep(ctx, state, r, { phase: 'mcp', colour: 'green', check: 'initialize', title: `initialize → ${version ?? ex.status}`, reason, spec: 'MCP Lifecycle', exchanges: [ex.id] }, (step, count) => {
      step.reason = `${reason.slice(0, -1)}, ${count} times: a new session each time (hosts such as ChatGPT open one per tool call).`;
    });
    return;
  }
  if (method === 'tools/list' && !state.listed.has(ex.sessionKey)) {
    state.listed.add(ex.sessionKey);
    const reason = failed ? `Listing tools failed${why}.` : 'The client read the tool list.';
    repeatStep(ctx, state, r, { phase: 'mcp', colour: failed ? 'red' : 'green', check: 'tools-list', title: `tools/list → ${ex.status.replace('_', ' ')}`, reason, exchanges: [ex.id] }, (step, count) => {
      if (!failed) step.reason = `The client read the tool list, ${count} times: once in each new session.`;
    });
    return;
  }
  foldCall(ctx, state, r, method, failed, ex.id);
}

/** The exchanges opened by the frames a record carried (batch items included). */
function exchangesOf(ctx: FlowContext, r: DoorRecord): ExchangeSummary[] {
  const out: ExchangeSummary[] = [];
  for (const seq of r.frameSeqs ?? []) {
    const single = ctx.facts.exchange(String(seq));
    if (single) {
      if (single.frameSeqs[0] === seq) out.push(single);
      continue;
    }
    for (let i = 0; i < 64; i++) {
      const item = ctx.facts.exchange(`${seq}.${i}`);
      if (!item) break;
      out.push(item);
    }
  }
  return out;
}

function httpError(ctx: FlowContext, r: DoorRecord, exchanges: ExchangeSummary[] = []): void {
  const message = exchanges.find((ex) => ex.errorMessage)?.errorMessage;
  const status = r.status;
  const reason =
    status === undefined
      ? r.end === 'client-gone'
        ? 'The client left before the server answered.'
        : 'No answer reached the client.'
      : `The MCP endpoint answered ${status}${message ? `: ${message}` : ''}.`;
  addStep(ctx, 'mcp', status === undefined && r.end === 'client-gone' ? 'amber' : 'red', 'mcp-http-error', titleOf(r), reason, [r], { exchanges: exchanges.map((ex) => ex.id), spec: STREAMABLE });
}

type BadAnswer = 'html' | 'redirect';

function htmlOrRedirect(r: DoorRecord): BadAnswer | undefined {
  if (r.status !== undefined && r.status >= 300 && r.status < 400 && r.responseHeaders.location !== undefined) return 'redirect';
  if (ok(r) && responseType(r) === 'text/html') return 'html';
  return undefined;
}

function badAnswer(ctx: FlowContext, r: DoorRecord, phase: FlowPhase, answer: BadAnswer): void {
  const what = r.method === 'GET' ? 'a GET' : `a ${r.method}`;
  const reason =
    answer === 'html'
      ? `The MCP endpoint answered ${what} with an HTML page: something in front of the server (a login page, a web app's catch-all route) answers instead of it, and hosts that look first may decide there is no MCP server here; an MCP endpoint answers GET with an event stream or 405.`
      : `The MCP endpoint redirects to ${r.responseHeaders.location} (a login page in front of the server?): MCP clients do not sign in through a redirect; protect the endpoint with a 401 and OAuth instead.`;
  addStep(ctx, phase, 'red', answer === 'html' ? 'mcp-html' : 'mcp-redirect', titleOf(r), reason, [r], { spec: `${STREAMABLE}, MCP Authorization` });
}

/** A request the tap's Host/Origin guard refused. */
export function guardStep(ctx: FlowContext, r: DoorRecord, phase: FlowPhase): void {
  const host = r.host ?? '';
  const times = r.refusals && r.refusals.count > 1 ? ` ${r.refusals.count} times` : '';
  if (host && !isLoopbackHost(host)) {
    addStep(ctx, phase, 'red', 'public-url-missing', titleOf(r),
      `The tap refused Host ${host}${times} (403): it guards against DNS rebinding and does not know this name; if a tunnel forwards it, restart mcpscope with --public-url https://${host} (or accept the Host for this run in the Exchanges view), or --allow-host ${host.replace(/:\d+$/, '')} for a name on your network.`,
      [r], { spec: 'mcpscope Host guard' });
    return;
  }
  addStep(ctx, phase, 'red', 'origin-refused', titleOf(r), `${times ? `Refused${times}. ` : ''}${r.note ?? `The tap refused the request (403) for its Origin ${r.requestHeaders.origin ?? ''}.`}`, [r], { spec: 'MCP Streamable HTTP (Origin), mcpscope Host guard' });
}

/**
 * A POST to a path that is not the MCP endpoint: the connector's URL lacks the server's MCP path
 * (`https://abc.trycloudflare.com` instead of `…/mcp`). Whatever the server answered there (a 404,
 * a 406, its web page), the client is not talking to the MCP server.
 */
export function notMcpEndpointStep(ctx: FlowContext, r: DoorRecord): void {
  const path = doorPathname(r.path);
  const origin = requestedOrigin(r);
  const mcpPath = ctx.facts.mcpPath;
  const use = origin && mcpPath ? `use ${origin}${mcpPath}` : mcpPath ? `use the path ${mcpPath}` : 'use the URL of the MCP endpoint';
  addStep(ctx, 'mcp', 'red', 'not-mcp-endpoint', titleOf(r), `POST ${path} is not the MCP endpoint: ${use}.`, [r], { spec: STREAMABLE });
}

export function upstreamFailedStep(ctx: FlowContext, r: DoorRecord, phase: FlowPhase): void {
  addStep(ctx, phase, 'red', 'upstream-unreachable', titleOf(r), `The tap could not reach the server${r.note ? `: ${r.note}` : ''}; the client got 502.`, [r]);
}

/**
 * CORS as a browser-based client meets it (Fetch standard): a preflight must allow the origin,
 * method and headers; an answer must allow the origin and expose the headers the client reads.
 * Returns true when it wrote a failing step.
 */
export function corsStep(ctx: FlowContext, r: DoorRecord, phase: FlowPhase, preflight: boolean): boolean {
  const origin = r.requestHeaders.origin;
  if (origin === undefined || r.answer === 'refused' || r.status === undefined) return false;
  const allowOrigin = r.responseHeaders['access-control-allow-origin'];
  const title = titleOf(r);
  const spec = 'Fetch standard (CORS)';
  if (allowOrigin !== origin && allowOrigin !== '*') {
    addStep(ctx, phase, 'red', preflight ? 'cors-preflight' : 'cors-origin', title,
      `A browser-based client on ${origin} would be refused: the ${preflight ? 'preflight' : 'answer'} ${allowOrigin ? `allows ${allowOrigin}` : 'has no Access-Control-Allow-Origin'}.`,
      [r], { spec });
    return true;
  }
  if (preflight) {
    if (!ok(r)) {
      addStep(ctx, phase, 'red', 'cors-preflight', title, `The preflight answered ${r.status}: the browser will not send the request.`, [r], { spec });
      return true;
    }
    const method = r.requestHeaders['access-control-request-method'] ?? '';
    const methods = list(r.responseHeaders['access-control-allow-methods']);
    if (method && !methods.includes('*') && !methods.includes(method.toLowerCase()) && !['get', 'head', 'post'].includes(method.toLowerCase())) {
      addStep(ctx, phase, 'red', 'cors-preflight', title, `The preflight does not allow the method ${method}.`, [r], { spec });
      return true;
    }
    const wanted = list(r.requestHeaders['access-control-request-headers']);
    const allowed = list(r.responseHeaders['access-control-allow-headers']);
    const missing = allowed.includes('*') ? [] : wanted.filter((h) => !allowed.includes(h));
    if (missing.length > 0) {
      addStep(ctx, phase, 'red', 'cors-preflight', title, `The preflight does not allow the header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`, [r], { spec });
      return true;
    }
    return false;
  }
  const exposed = list(r.responseHeaders['access-control-expose-headers']);
  const hidden = (name: string) => r.responseHeaders[name] !== undefined && !exposed.includes('*') && !exposed.includes(name);
  if (hidden('mcp-session-id')) {
    addStep(ctx, phase, 'red', 'cors-expose-session', title, 'The answer carries Mcp-Session-Id but does not expose it: a browser-based client cannot read it, and every later request fails.', [r], { spec: `${spec}, ${STREAMABLE}` });
    return true;
  }
  if (r.status === 401 && hidden('www-authenticate')) {
    addStep(ctx, phase, 'amber', 'cors-expose-www-authenticate', title, 'The 401 does not expose WWW-Authenticate: a browser-based client cannot read where the metadata is and must guess.', [r], { spec });
    return true;
  }
  return false;
}

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
