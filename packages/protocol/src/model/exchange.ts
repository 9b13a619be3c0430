/**
 * Exchanges: a request paired with its answer (and the notifications that belong to it), or a
 * lone notification. This is what the timeline shows one row for.
 */
import type { Direction } from './frame.js';
import type { JsonRpcId } from './json-rpc.js';
import type { TransportEvent } from './transport-frame.js';

export type ExchangeStatus =
  | 'pending'
  | 'ok'
  | 'protocol_error'
  | 'business_error'
  | 'transport_error'
  | 'cancelled'
  | 'orphan'
  | 'invalid';

export const EXCHANGE_STATUSES: readonly ExchangeStatus[] = [
  'pending',
  'ok',
  'protocol_error',
  'business_error',
  'transport_error',
  'cancelled',
  'orphan',
  'invalid',
];

/** Which side sent the request. `none` for rows that are not requests (notifications, junk). */
export type Requester = 'client' | 'server' | 'none';

export interface ExchangeSummary {
  /** Stable id: the seq of the frame that opened the row, with `.N` for the Nth item of a batch. */
  id: string;
  sessionKey: string;
  requester: Requester;
  /** Who sent the request or notification of the row (c2s = the client); for `dir:` on notifications. */
  direction?: Direction;
  kind: 'request' | 'notification' | 'invalid';
  method?: string;
  /** The tool name, resource URI or prompt name the request is about. */
  target?: string;
  rpcId?: JsonRpcId | null;
  status: ExchangeStatus;
  startTs: number;
  endTs?: number;
  latencyMs?: number;
  requestSeq?: number;
  responseSeq?: number;
  /** Every frame that belongs to the row, in capture order (request, progress, cancel, answer). */
  frameSeqs: number[];
  errorCode?: number;
  errorMessage?: string;
  /**
   * On a row the path itself ended (a transport error, a cancellation by a client that left):
   * what the tap saw happen (transport-frame.ts), e.g. `redirected` for a request the server sent
   * elsewhere instead of answering.
   */
  transportEvent?: TransportEvent;
  /** UTF-8 bytes of the request and response bodies as they went over the wire (a cut body counts whole). */
  size: number;
  diagnostics: number;
  /** 2026-07-28 MRTR: set on a retry, the id of the exchange whose input_required answer started the chain. */
  chainOf?: string;
  /** 2026-07-28 MRTR: the answer was `resultType: "input_required"` — incomplete, a retry is expected. */
  inputRequired?: boolean;
  /**
   * Set on an exchange with no session of its own (the stateless era, a probe before initialize):
   * the conversation it joined. Exchanges of a session follow the session's `conversationKey`.
   */
  conversation?: string;
  /** When its progress notifications came, in ms after the request (the first PROGRESS_MARKS_MAX of them). */
  progressAt?: number[];
  /**
   * Set on an answer a host rejects although it is a result (error-severity finding such as
   * structuredContent breaking the tool's outputSchema): that finding's code. The row failed:
   * `status:err` finds it and the badge says so.
   */
  brokeHostRules?: string;
  /** Set on a replayed exchange: the id of the exchange it replays. */
  replayOf?: string;
  /** Set when an intercept rule acted on this exchange (from its request frame's `http.rule`): nothing about it is plain traffic. */
  intercepted?: { rule: string; text: string; action: string };
  /** Set on a call a widget preview made: the id of the tools/call whose widget made it. */
  widgetOf?: string;
  /**
   * Set on what the dashboard's Drive panel sent (a form-built call, a list, a read) and on a
   * server request the dashboard answered: the id of the list exchange the form was built from,
   * or the exchange's own id when it came from none.
   */
  fromDashboard?: string;
  /** The seq of the last frame that changed this summary (for incremental sync). */
  updatedSeq: number;
}

/** Status that a finished exchange can no longer leave. */
/** The statuses `status:err` means: the exchange failed, whichever layer failed it. */
export const ERROR_STATUSES = ['protocol_error', 'business_error', 'transport_error', 'invalid'] as const;

/**
 * Where an exchange sits in capture order, from its id: `12` (the exchange of frame 12) → 12,
 * `12.3` (the fourth item of the batch in frame 12) → 12.0004, so batch items follow their
 * frame, in order. The store's `sort_key` column and the dashboard's index both order by this.
 */
export function exchangeOrderKey(id: string): number {
  const dot = id.indexOf('.');
  return dot === -1 ? Number(id) : Number(id.slice(0, dot)) + (Number(id.slice(dot + 1)) + 1) / 10_000;
}

export function isTerminal(status: ExchangeStatus): boolean {
  return status !== 'pending';
}
