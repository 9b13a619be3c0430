/**
 * One exchange as one span, named and attributed by OpenTelemetry's MCP semantic conventions
 * (semantic-conventions-genai, docs/gen-ai/mcp.md; status Development), plus mcpscope's own
 * `mcpscope.*` attributes. Pure: the facts about an exchange in, a plan the SDK turns into a span.
 *
 * - Name `{mcp.method.name} {target}`, the target being the tool or prompt name only (resource
 *   URIs are high-cardinality: they go in `mcp.resource.uri`, not the name).
 * - Kind: mcpscope stands where the server is (it is the server's address to the client), so it
 *   reports as the server's side does: SERVER for what the client sends, CLIENT for what the
 *   server sends (sampling, elicitation, roots).
 * - Errors: a JSON-RPC error sets `rpc.response.status_code`; on SERVER spans the codes that mean
 *   the caller sent a bad request (-32700, -32600, -32601, -32602, -32002) are not failures of
 *   the operation (no `error.type`, status unset), every other code is. `isError: true` is
 *   `tool_error`. Transport failures carry mcpscope's transport event (`upstream-error`, …).
 * - Trace: every span of a session shares its session's trace (span-ids.ts), as siblings: there
 *   is no session span to hang them on, since a session has no end mcpscope can wait for. A
 *   `traceparent` the client put in `params._meta` (the conventions' propagation) becomes a link,
 *   as does a replay's original.
 * - Progress and cancel notifications, and transport failures, are span events at their time.
 */
import { isJsonObject, parseTransportFrame, type ExchangeSummary, type FrameView, type JsonObject, type SessionSummary } from '@mcpscope/protocol';
import { spanIdOf, traceIdOf, type SpanIds } from './span-ids.js';
import type { BodyAttributes } from './span-bodies.js';

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface SpanPlan {
  ids: SpanIds;
  name: string;
  kind: 'server' | 'client';
  /** Milliseconds since the epoch (fractions kept). */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: { name: string; timeMs: number; attributes: Attributes }[];
  links: { ids: SpanIds; attributes: Attributes }[];
  /** Set when the operation failed: the span's status is then ERROR with this description. */
  error?: { type: string; message: string };
}

/** What is known about one exchange, read from the capture. */
export interface ExchangeFacts {
  exchange: ExchangeSummary;
  session?: SessionSummary;
  /** The request's frame, when the exchange has one (bodies may be cut). */
  request?: FrameView;
  /** The answer's frame; read only when bodies are exported. */
  response?: FrameView;
  /** The exchange's other frames (progress, cancel, transport), in capture order. */
  others: FrameView[];
  diagnosticCodes: string[];
  /** The exchange a replay replays, with its session. */
  original?: { exchange: ExchangeSummary; session?: SessionSummary };
  /** Whose fault a failed exchange is (verdict/verdict.ts in the protocol package). */
  verdict?: { kind: string; fault: string };
  /** The conversation the exchange belongs to (its own, or its session's). */
  conversationKey?: string;
}

/** Server-side codes that mean "the caller sent something I could not serve" (mcp.md, rpc.response.status_code). */
const CALLER_FAULT_CODES = new Set([-32700, -32600, -32601, -32602, -32002]);
const RESOURCE_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe', 'notifications/resources/updated']);
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

export function sessionTraceId(session: Pick<SessionSummary, 'sessionKey' | 'firstTs'> | undefined, sessionKey: string): string {
  return traceIdOf(sessionKey, session?.firstTs);
}

export function planSpan(facts: ExchangeFacts, bodies?: BodyAttributes): SpanPlan {
  const { exchange: ex, session } = facts;
  const traceId = sessionTraceId(session, ex.sessionKey);
  const ids = { traceId, spanId: spanIdOf(traceId, ex.id) };
  // What the server sends (a request of its own, or a notification) is the initiator's side.
  const kind = ex.requester === 'server' || (ex.requester === 'none' && ex.direction === 's2c') ? 'client' : 'server';
  const request = facts.request ? parseJson(facts.request) : undefined;

  const attributes: Attributes = {};
  if (ex.method !== undefined) attributes['mcp.method.name'] = ex.method;
  if (ex.rpcId !== undefined && ex.rpcId !== null) attributes['jsonrpc.request.id'] = String(ex.rpcId);
  if (session?.protocolVersion) attributes['mcp.protocol.version'] = session.protocolVersion;
  const mcpSessionId = mcpSessionIdOf(ex.sessionKey, session);
  if (mcpSessionId) attributes['mcp.session.id'] = mcpSessionId;
  Object.assign(attributes, networkAttributes(session?.transport));
  if (request && request.jsonrpc !== '2.0' && typeof request.jsonrpc === 'string') attributes['jsonrpc.protocol.version'] = request.jsonrpc;
  let target: string | undefined;
  if (ex.method === 'tools/call' && ex.target) {
    target = ex.target;
    attributes['gen_ai.tool.name'] = ex.target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (ex.method === 'prompts/get' && ex.target) {
    target = ex.target;
    attributes['gen_ai.prompt.name'] = ex.target;
  } else if (ex.method !== undefined && RESOURCE_METHODS.has(ex.method) && ex.target) {
    attributes['mcp.resource.uri'] = ex.target;
  }
  if (ex.errorCode !== undefined) attributes['rpc.response.status_code'] = String(ex.errorCode);

  attributes['mcpscope.status'] = ex.status;
  attributes['mcpscope.exchange.id'] = ex.id;
  attributes['mcpscope.session.key'] = ex.sessionKey;
  attributes['mcpscope.size'] = ex.size;
  attributes['mcpscope.diagnostics.count'] = ex.diagnostics;
  if (facts.diagnosticCodes.length > 0) attributes['mcpscope.diagnostics.codes'] = facts.diagnosticCodes;
  if (facts.conversationKey) attributes['mcpscope.conversation.key'] = facts.conversationKey;
  if (facts.verdict) {
    attributes['mcpscope.verdict'] = facts.verdict.kind;
    attributes['mcpscope.fault'] = facts.verdict.fault;
  }
  if (ex.replayOf) attributes['mcpscope.replay_of'] = ex.replayOf;
  // An intercept rule acted on this exchange: its span is not plain traffic.
  if (ex.intercepted) {
    attributes['mcpscope.intercepted.rule'] = ex.intercepted.text;
    attributes['mcpscope.intercepted.action'] = ex.intercepted.action;
  }
  if (ex.errorMessage) attributes['mcpscope.error.message'] = ex.errorMessage;
  const clientName = stringField(session?.clientInfo, 'name') ?? session?.clientLabel;
  if (clientName) attributes['mcpscope.client.name'] = clientName;
  const serverName = stringField(session?.serverInfo, 'name');
  if (serverName) attributes['mcpscope.server.name'] = serverName;
  if (bodies) Object.assign(attributes, bodies.of(ex, facts.request, facts.response));

  const events: SpanPlan['events'] = [];
  let lastTs = ex.startTs;
  let transportEvent: string | undefined;
  for (const frame of facts.others) {
    lastTs = Math.max(lastTs, frame.ts);
    if (frame.kind === 'transport') {
      const { event, message } = parseTransportFrame(frame.raw);
      transportEvent ??= event;
      events.push({ name: 'mcpscope.transport', timeMs: frame.ts, attributes: { 'mcpscope.transport.event': event ?? 'unknown', 'mcpscope.transport.message': message } });
      continue;
    }
    if (frame.kind !== 'data') continue;
    const message = parseJson(frame);
    const method = typeof message?.method === 'string' ? message.method : undefined;
    events.push({ name: method ?? 'mcpscope.frame', timeMs: frame.ts, attributes: eventAttributes(method, message, frame) });
  }

  const links: SpanPlan['links'] = [];
  if (facts.original) {
    const originalTrace = sessionTraceId(facts.original.session, facts.original.exchange.sessionKey);
    links.push({ ids: { traceId: originalTrace, spanId: spanIdOf(originalTrace, facts.original.exchange.id) }, attributes: { 'mcpscope.link.type': 'replay_of', 'mcpscope.exchange.id': facts.original.exchange.id } });
  }
  const propagated = traceparentOf(request);
  if (propagated) links.push({ ids: propagated, attributes: { 'mcpscope.link.type': 'traceparent' } });

  const plan: SpanPlan = {
    ids,
    name: target ? `${ex.method} ${target}` : (ex.method ?? (ex.status === 'orphan' ? 'orphan response' : 'invalid message')),
    kind,
    startMs: ex.startTs,
    endMs: Math.max(ex.startTs, ex.endTs ?? lastTs),
    attributes,
    events,
    links,
  };
  const errorType = errorTypeOf(ex, kind, transportEvent);
  if (errorType) {
    attributes['error.type'] = errorType;
    plan.error = { type: errorType, message: ex.errorMessage ?? errorType };
  }
  return plan;
}

function errorTypeOf(ex: ExchangeSummary, kind: SpanPlan['kind'], transportEvent: string | undefined): string | undefined {
  switch (ex.status) {
    case 'protocol_error':
      if (ex.errorCode === undefined) return '_OTHER';
      return kind === 'server' && CALLER_FAULT_CODES.has(ex.errorCode) ? undefined : String(ex.errorCode);
    case 'business_error':
      return 'tool_error';
    case 'transport_error':
      return transportEvent ?? 'transport_error';
    case 'cancelled':
      return 'cancelled';
    case 'invalid':
      return 'invalid_message';
    default:
      return undefined;
  }
}

/**
 * `mcp.session.id` is the `Mcp-Session-Id` of a pre-2026-07-28 Streamable HTTP session, which is
 * the capture's session key for those; stateless sessions (`client:` keys), stdio and legacy SSE
 * sessions have none (the registry: MUST NOT be set for 2026-07-28 sessions).
 */
function mcpSessionIdOf(sessionKey: string, session: SessionSummary | undefined): string | undefined {
  if (!session || session.era === 'modern') return undefined;
  if (session.transport !== 'http-json' && session.transport !== 'sse') return undefined;
  return sessionKey.startsWith('client:') ? undefined : sessionKey;
}

/** mcp.md, "Recording MCP transport": stdio is a pipe; Streamable HTTP and HTTP+SSE ride on TCP. */
function networkAttributes(transport: string | undefined): Attributes {
  if (transport === 'stdio') return { 'network.transport': 'pipe' };
  if (transport === 'http-json' || transport === 'sse' || transport === 'legacy-sse') return { 'network.transport': 'tcp', 'network.protocol.name': 'http', 'network.protocol.version': '1.1' };
  return {};
}

function eventAttributes(method: string | undefined, message: JsonObject | undefined, frame: FrameView): Attributes {
  const params = isJsonObject(message?.params) ? message.params : undefined;
  const out: Attributes = { 'mcpscope.frame.seq': frame.seq, 'mcpscope.frame.direction': frame.direction };
  if (method === 'notifications/progress' && params) {
    if (typeof params.progress === 'number') out['mcpscope.progress'] = params.progress;
    if (typeof params.total === 'number') out['mcpscope.progress.total'] = params.total;
    if (typeof params.message === 'string') out['mcpscope.progress.message'] = params.message;
  } else if (method === 'notifications/cancelled' && params && typeof params.reason === 'string') {
    out['mcpscope.cancel.reason'] = params.reason;
  }
  return out;
}

function traceparentOf(request: JsonObject | undefined): SpanIds | undefined {
  const params = isJsonObject(request?.params) ? request.params : undefined;
  const meta = isJsonObject(params?._meta) ? params._meta : undefined;
  const value = typeof meta?.traceparent === 'string' ? TRACEPARENT.exec(meta.traceparent.trim().toLowerCase()) : null;
  if (!value || /^0+$/.test(value[1]!) || /^0+$/.test(value[2]!)) return undefined;
  return { traceId: value[1]!, spanId: value[2]! };
}

function parseJson(frame: FrameView): JsonObject | undefined {
  if (frame.truncated) return undefined;
  try {
    const value = JSON.parse(frame.raw) as unknown;
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function stringField(obj: JsonObject | undefined, key: string): string | undefined {
  const value = obj?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
