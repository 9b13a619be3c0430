/**
 * What the pipeline tells its listeners after each write (the live hub, the OTLP export, replay
 * waiting for its exchange). The summaries are the JSON texts the write stored; the objects are
 * read from them only when a listener asks: when the engine derives on its worker (worker-engine.ts),
 * the tap's thread has no objects of its own, and a capture with no dashboard open and no export
 * should not parse what nobody reads.
 */
import type { ConversationSummary, ExchangeSummary, Frame, SessionSummary } from '@mcpscope/protocol';
import type { DerivedBatch } from './capture-engine.js';
import type { TickTexts } from './tick-ops.js';
import type { Trim } from './retention.js';

export interface CaptureBatch {
  frames: Frame[];
  /** Each exchange this write changed, by id, with its summary as the JSON text stored (same order). */
  exchangeIds: string[];
  exchangeJson: string[];
  /** The same summaries as objects (read from the texts on first use). */
  readonly exchanges: ExchangeSummary[];
  readonly sessions: SessionSummary[];
  readonly conversations: ConversationSummary[];
  head: number;
  /** Door records written this write, with the JSON text stored (each at its latest state). */
  requests: { id: number; json: string }[];
  /** The highest door-record `rev` written so far. */
  requestsRev: number;
  /** Set when retention removed old frames after this batch was written. */
  retention?: Trim;
}

export type BatchListener = (batch: CaptureBatch) => void;

/** A batch from a write's texts; `derived` when this thread derived it (its objects, as they are). */
export function captureBatch(
  texts: TickTexts,
  derived: DerivedBatch | undefined,
  rest: Pick<CaptureBatch, 'frames' | 'head' | 'requests' | 'requestsRev'>,
): CaptureBatch {
  let exchanges = derived?.exchanges;
  let sessions = derived?.sessions;
  let conversations = derived?.conversations;
  return {
    ...rest,
    exchangeIds: texts.exchangeIds,
    exchangeJson: texts.exchanges,
    get exchanges() {
      return (exchanges ??= texts.exchanges.map((t) => JSON.parse(t) as ExchangeSummary));
    },
    get sessions() {
      return (sessions ??= texts.sessions.map((t) => JSON.parse(t) as SessionSummary));
    },
    get conversations() {
      return (conversations ??= texts.conversations.map((t) => JSON.parse(t) as ConversationSummary));
    },
  };
}
