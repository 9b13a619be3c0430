/**
 * What the capture looks like to a coding agent: exchanges, sessions, frames and diagnostics as
 * flat rows with readable names and ISO times, each with a zod schema the tools declare as their
 * outputSchema. Rows keep every key on every row (null when absent), so a tool's result has one
 * shape however the capture looks (mcpscope's own validator flags shape drift).
 */
import { z } from 'zod';
import { EXCHANGE_STATUSES, isImportedSession, type Diagnostic, type ExchangeSummary, type FrameView, type SessionSummary, type ConversationSummary } from '@mcpscope/protocol';

const iso = (ms: number) => new Date(ms).toISOString();

export const ExchangeRow = z.object({
  id: z.string().describe('Exchange id: pass it to get_exchange or replay_exchange.'),
  sessionKey: z.string(),
  kind: z.enum(['request', 'notification', 'invalid']),
  requester: z.enum(['client', 'server', 'none']).describe('Who sent the request: the MCP client, or the server (sampling, elicitation).'),
  method: z.string().nullable(),
  target: z.string().nullable().describe('Tool name, prompt name or resource URI the request is about.'),
  rpcId: z.union([z.string(), z.number()]).nullable(),
  status: z.enum(EXCHANGE_STATUSES as [string, ...string[]]).describe('ok, protocol_error (JSON-RPC error), business_error (isError: true), transport_error, cancelled, pending, orphan, invalid.'),
  startedAt: z.string(),
  latencyMs: z.number().nullable(),
  sizeBytes: z.number(),
  diagnostics: z.number().describe('How many spec findings mcpscope made about it (get_exchange lists them).'),
  errorCode: z.number().nullable(),
  errorMessage: z.string().nullable(),
  replayOf: z.string().nullable().describe('Set on a replay: the id of the exchange it replays.'),
});
export type ExchangeRow = z.infer<typeof ExchangeRow>;

export function exchangeRow(ex: ExchangeSummary): ExchangeRow {
  return {
    id: ex.id,
    sessionKey: ex.sessionKey,
    kind: ex.kind,
    requester: ex.requester,
    method: ex.method ?? null,
    target: ex.target ?? null,
    rpcId: ex.rpcId ?? null,
    status: ex.status,
    startedAt: iso(ex.startTs),
    latencyMs: ex.latencyMs === undefined ? null : Math.round(ex.latencyMs * 100) / 100,
    sizeBytes: ex.size,
    diagnostics: ex.diagnostics,
    errorCode: ex.errorCode ?? null,
    errorMessage: ex.errorMessage ?? null,
    replayOf: ex.replayOf ?? null,
  };
}

export const SessionRow = z.object({
  sessionKey: z.string().describe('Use it in filters as session:"KEY".'),
  client: z.string().nullable(),
  server: z.string().nullable(),
  protocolVersion: z.string().nullable(),
  transport: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  ended: z.boolean(),
  imported: z.boolean().describe('Recorded elsewhere and imported: nothing can be sent into it (replay with mode "fresh").'),
  counts: z.record(z.string(), z.number()).describe('Exchanges by status.'),
});
export type SessionRow = z.infer<typeof SessionRow>;

export const ConversationRow = z.object({
  conversationKey: z.string().describe('Use it in filters as conversation:KEY (every exchange of every session in it).'),
  host: z.string().describe('Who the host is: "ChatGPT", "Claude", or the client\'s own name.'),
  joinedBy: z.record(z.string(), z.number()).describe('How its sessions were joined: the host\'s conversation id (openai/session), a credential fingerprint, or client and time.'),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  sessions: z.number().describe('MCP sessions the host opened in this conversation (ChatGPT opens one per call).'),
  staleSessionCalls: z.number().describe('Requests on a session the server no longer knew.'),
  counts: z.record(z.string(), z.number()).describe('Exchanges by status.'),
});
export type ConversationRow = z.infer<typeof ConversationRow>;

export function conversationRow(c: ConversationSummary): ConversationRow {
  const counts: Record<string, number> = {};
  for (const [status, n] of Object.entries(c.counts)) if (n) counts[status] = n;
  const joinedBy: Record<string, number> = {};
  for (const [evidence, n] of Object.entries(c.joinedBy)) if (n) joinedBy[evidence] = n;
  return {
    conversationKey: c.key,
    host: c.host,
    joinedBy,
    firstSeenAt: iso(c.firstTs),
    lastSeenAt: iso(c.lastTs),
    sessions: c.churn.sessions,
    staleSessionCalls: c.churn.staleSessionCalls,
    counts,
  };
}

export function sessionRow(s: SessionSummary): SessionRow {
  const named = (info: SessionSummary['clientInfo']) => (info && typeof info.name === 'string' ? `${info.name}${typeof info.version === 'string' ? ` ${info.version}` : ''}` : null);
  const counts: Record<string, number> = {};
  for (const [status, n] of Object.entries(s.counts)) if (n) counts[status] = n;
  return {
    sessionKey: s.sessionKey,
    client: s.clientLabel ?? named(s.clientInfo),
    server: named(s.serverInfo),
    protocolVersion: s.protocolVersion ?? null,
    transport: s.transport,
    firstSeenAt: iso(s.firstTs),
    lastSeenAt: iso(s.lastTs),
    ended: s.ended === true,
    imported: isImportedSession(s.sessionKey),
    counts,
  };
}

export const FrameRow = z.object({
  seq: z.number().describe('Frame number: get_frame_body reads more of a cut body by it.'),
  at: z.string(),
  direction: z.enum(['c2s', 's2c']).describe('c2s: client to server; s2c: server to client.'),
  kind: z.enum(['data', 'transport', 'log']).describe('data: protocol bytes; transport: what happened to the connection; log: stdio stderr.'),
  transport: z.string(),
  http: z.object({ method: z.string(), path: z.string(), status: z.number().nullable() }).nullable(),
  body: z.string().describe('The frame as sent (secrets redacted at capture), cut at maxBodyChars.'),
  bodyChars: z.number(),
  truncated: z.boolean(),
});
export type FrameRow = z.infer<typeof FrameRow>;

export function frameRow(f: FrameView): FrameRow {
  return {
    seq: f.seq,
    at: iso(f.ts),
    direction: f.direction,
    kind: f.kind,
    transport: f.transport,
    http: f.http ? { method: f.http.method, path: f.http.path, status: f.http.status ?? null } : null,
    body: f.raw,
    bodyChars: f.size,
    truncated: f.truncated,
  };
}

export const DiagnosticRow = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  path: z.string().nullable().describe('JSON path inside the frame the finding is about.'),
  frameSeq: z.number(),
});

export function diagnosticRow(d: Diagnostic): z.infer<typeof DiagnosticRow> {
  return { code: d.code, severity: d.severity, message: d.message, path: d.path ?? null, frameSeq: d.frameSeq };
}
