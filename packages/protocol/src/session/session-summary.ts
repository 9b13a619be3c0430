/**
 * Sessions. Legacy era (≤2025-11-25): one per `Mcp-Session-Id`, SSE connection or stdio process.
 * 2026-07-28 (stateless): a synthetic key from the client's identity.
 */
import type { JsonObject } from '../model/json-rpc.js';
import type { ExchangeStatus } from '../model/exchange.js';

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
  ended?: boolean;
}
