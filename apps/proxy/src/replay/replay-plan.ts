/**
 * Works out everything a replay (or a "copy as curl") needs before anything is sent: the
 * original request and its session, the client's headers and credentials, the session id and
 * negotiated version, the path on the upstream, and the tool's inputSchema for 2026-07-28 headers.
 */
import { isJsonObject, type JsonObject, type SessionSummary } from '@mcpscope/protocol';
import type { SessionCredentials } from './credentials.js';
import { fail, ok, type Result } from './replay-errors.js';
import type { ReplayBody, ReplayMode } from './replay-body.js';
import type { OriginalRequest, ReplayStore } from './replay-store.js';
import { isModernMessage, type WireContext } from '../upstream/wire-headers.js';

export interface ReplayPlan {
  mode: ReplayMode;
  message: JsonObject;
  original?: OriginalRequest;
  /** The session the original ran in (or the one named by the composer). */
  sessionKey?: string;
  session?: SessionSummary;
  modern: boolean;
  path: string;
  /** Context for the headers; in `fresh` mode sessionId and version come from the new session. */
  wire: WireContext;
}

export interface PlanDeps {
  store: ReplayStore;
  credentials: SessionCredentials;
  /** The MCP endpoint's path on the upstream, for messages composed from scratch. */
  upstreamPath: string;
}

export function planReplay(body: ReplayBody, deps: PlanDeps): Result<ReplayPlan> {
  let original: OriginalRequest | undefined;
  if (body.exchangeId !== undefined) {
    const found = deps.store.original(body.exchangeId);
    if (found === 'not_found') return fail('not_found', `No exchange ${body.exchangeId} in the capture.`);
    if (found === 'not_client_message') return fail('not_replayable', `Exchange ${body.exchangeId} is not a message the client sent; only client→server messages can be replayed.`);
    original = found;
  }
  const sessionKey = body.sessionKey ?? original?.exchange.sessionKey;
  const session = sessionKey === undefined ? undefined : deps.store.session(sessionKey);
  if (body.mode === 'session' && (sessionKey === undefined || (!original && !session))) {
    return fail('no_session', 'A session replay needs the exchange (or session) it belongs to; use mode "fresh" for a message composed from scratch.');
  }
  if (body.mode === 'session' && session?.transport === 'stdio') {
    return fail('no_session', "Replaying into the stdio server's own session is not available (the bridge owns its pipe); replay in a fresh session: mcpscope starts its own copy of the server.", { retryWith: 'fresh' });
  }
  const captured = original?.frame.http?.requestHeaders;
  const modern = isModernMessage(body.message) || session?.era === 'modern';
  const wire: WireContext = { credentials: sessionKey === undefined ? {} : deps.credentials.get(sessionKey) };
  if (captured) wire.captured = captured;
  if (body.mode === 'session' && !modern) {
    // The captured header is authoritative; a composed message falls back to the session key,
    // which is the Mcp-Session-Id for HTTP sessions.
    const sessionId = captured ? captured['mcp-session-id'] : session?.transport !== 'stdio' ? sessionKey : undefined;
    if (sessionId !== undefined) wire.sessionId = sessionId;
    const version = session?.protocolVersion ?? captured?.['mcp-protocol-version'];
    if (version !== undefined) wire.protocolVersion = version;
  }
  const inputSchema = toolSchema(body.message, sessionKey, deps.store);
  if (inputSchema) wire.inputSchema = inputSchema;
  const capturedPath = original?.frame.http?.path;
  const path = body.mode === 'session' && capturedPath?.startsWith('/') && !capturedPath.startsWith('//') ? capturedPath : deps.upstreamPath;
  const plan: ReplayPlan = { mode: body.mode, message: body.message, modern, path, wire };
  if (original) plan.original = original;
  if (sessionKey !== undefined) plan.sessionKey = sessionKey;
  if (session) plan.session = session;
  return ok(plan);
}

function toolSchema(message: JsonObject, sessionKey: string | undefined, store: ReplayStore): JsonObject | undefined {
  if (message.method !== 'tools/call' || sessionKey === undefined || !isJsonObject(message.params)) return undefined;
  const name = message.params.name;
  const tool = store.tools(sessionKey).find((t) => t.name === name);
  return tool && isJsonObject(tool.inputSchema) ? tool.inputSchema : undefined;
}
