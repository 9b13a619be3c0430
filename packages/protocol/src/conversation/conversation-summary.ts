/**
 * Conversations: the host's conversation above its MCP sessions. ChatGPT and Claude's connector
 * open a new session for almost every tool call (or drop `Mcp-Session-Id` between calls), so one
 * chat of ten calls is ten sessions; a conversation puts them back together, and says which
 * evidence did it, because a guess must look like a guess.
 *
 * A session with a server-minted id (Mcp-Session-Id, a legacy SSE connection, a stdio process)
 * belongs to one conversation at a time, and may move when better evidence arrives (its
 * `tools/call` carries the host's own conversation id). Traffic with no session at all (the
 * stateless era, probes before `initialize`) is placed exchange by exchange, once.
 */
import type { ExchangeStatus } from '../model/exchange.js';

/**
 * What put a session (or a session-less exchange) in its conversation, strongest first:
 * - `host`: the host's own conversation id in request `_meta` (`openai/session`);
 * - `credential`: the same bearer credential (a salted fingerprint taken before redaction, never
 *   the token itself) within an hour;
 * - `client-time`: the same client (ChatGPT, Claude, the SDK client's name) within ten minutes.
 */
export type JoinEvidence = 'host' | 'credential' | 'client-time';

export const JOIN_EVIDENCE: readonly JoinEvidence[] = ['host', 'credential', 'client-time'];

/** How many sessions the host churned through, and what that churn cost. */
export interface ConversationChurn {
  /** Sessions with a server-minted id in the conversation. */
  sessions: number;
  initialize: number;
  toolsList: number;
  toolsCall: number;
  /** Sessions that were initialized and never used for more than the handshake and listing. */
  unusedSessions: number;
  /** Requests on a session the server did not know: HTTP 404, or 400 on a session never seen initialized or with the SDK routing's id-less -32000. */
  staleSessionCalls: number;
  /** What the server answered the latest of those. */
  staleAnswer?: string;
}

/** One step of the negotiation: a `server/discover` probe or an `initialize`, and its outcome. */
export interface EraEvent {
  kind: 'discover' | 'initialize';
  exchangeId: string;
  sessionKey: string;
  ts: number;
  /** The revision the client asked for. */
  requested?: string;
  /** initialize: the revision the server answered with; discover: the one both sides support. */
  agreed?: string;
  /** discover: the revisions the server listed (DiscoverResult, or -32022's data). */
  supported?: string[];
  outcome: 'pending' | 'ok' | 'failed';
  /** The failure in words: HTTP status, JSON-RPC code and message. */
  error?: string;
  /** An initialize that follows a failed probe: the client fell back to the legacy era. */
  fallback?: boolean;
  /** A version-mismatch answer (-32022, or initialize answered with another revision than asked). */
  mismatch?: boolean;
}

/** Events with the same kind, request and answer, counted: the lane at a glance. */
export interface EraStep {
  kind: EraEvent['kind'];
  requested?: string;
  /** The answer in words: `2025-11-25`, `supports 2025-11-25`, `HTTP 400 · -32000 …`. */
  answer: string;
  outcome: 'ok' | 'failed';
  fallback?: boolean;
  mismatch?: boolean;
  count: number;
  firstTs: number;
  lastTs: number;
}

/** Which era each side speaks, as the traffic shows it. */
export interface EraLane {
  /** The revision agreed last (initialize's answer, or a successful probe's mutual revision). */
  agreed?: string;
  probes: number;
  failedProbes: number;
  fallbacks: number;
  mismatches: number;
  /** Distinct steps in order of first occurrence (at most MAX_ERA_STEPS). */
  steps: EraStep[];
  /** The latest events (at most MAX_ERA_EVENTS), oldest first. */
  recent: EraEvent[];
}

export interface ConversationSummary {
  /** `c` + the seq of the frame that started it: stable, short, and ordered like the capture. */
  key: string;
  /** Who the host is: "ChatGPT", "Claude", or the client's own name. */
  host: string;
  /** Sessions (and session-less exchanges) by the evidence that joined them. */
  joinedBy: Partial<Record<JoinEvidence, number>>;
  /** The host's own conversation id (`openai/session`), when it sent one. */
  hostId?: string;
  /** Whether a credential fingerprint was seen (the fingerprint itself is not shown). */
  credential?: boolean;
  /** Vendor `_meta` hints the host sent on requests (`openai/locale`, …): the latest value of each, shortened. */
  hints: Record<string, string>;
  firstTs: number;
  lastTs: number;
  /** Exchanges by status. */
  counts: Partial<Record<ExchangeStatus, number>>;
  churn: ConversationChurn;
  era: EraLane;
  /** The seq of the last frame that changed this summary. */
  updatedSeq: number;
}
