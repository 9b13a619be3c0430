/**
 * Sessions. Legacy era (≤2025-11-25): one per `Mcp-Session-Id`, SSE connection or stdio process.
 * 2026-07-28 (stateless): a synthetic key from the client's identity.
 */
import type { JsonObject } from '../model/json-rpc.js';
import type { ExchangeStatus } from '../model/exchange.js';
import type { JoinEvidence } from '../conversation/conversation-summary.js';

export type Era = 'legacy' | 'modern';

export interface SessionSummary {
  sessionKey: string;
  transport: string;
  era?: Era;
  protocolVersion?: string;
  clientInfo?: JsonObject;
  serverInfo?: JsonObject;
  clientCapabilities?: JsonObject;
  serverCapabilities?: JsonObject;
  userAgent?: string;
  /** A friendly client name: "ChatGPT" for `openai-mcp/…`, else clientInfo's title or name. */
  clientLabel?: string;
  firstTs: number;
  lastTs: number;
  counts: Partial<Record<ExchangeStatus, number>>;
  /**
   * The client ended this session: a DELETE the server accepted. An HTTP fact, set by the capture
   * reader from door records (the API's session lists), not by the deriver.
   */
  ended?: boolean;
  /** The server no longer knows this session (it answered a request on it with 404). */
  expired?: boolean;
  /** The conversation the session belongs to now, and the evidence that put it there. */
  conversationKey?: string;
  joinedBy?: JoinEvidence;
}

/**
 * Session keys the tap makes up for traffic that has no session (2026-07-28, a server that mints
 * no id, a probe before initialize): `client:` + the client's identity. Such a "session" spans
 * conversations, so its exchanges join conversations one by one. Imported traffic keeps the
 * original key after `import:<file>:`.
 */
export const SESSIONLESS_KEY_PREFIX = 'client:';

export function isSessionlessKey(sessionKey: string): boolean {
  return sessionKey.startsWith(SESSIONLESS_KEY_PREFIX) || (sessionKey.startsWith('import:') && sessionKey.includes(`:${SESSIONLESS_KEY_PREFIX}`));
}
