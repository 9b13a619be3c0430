/**
 * What replay reads from the capture (the original request, its session, the session's latest
 * `tools/list`) and the one thing it writes: the link between a replay and its original, both
 * ways. The link lives in the store's `replay_links` table (capture/replay-links.ts), beside the
 * derived ones; frames stay untouched. It is written through the capture sink (`link`), which
 * writes it on the thread that writes the replay's frames.
 */
import { classifyText, isJsonObject, type ExchangeSummary, type FrameView, type JsonObject, type SessionSummary } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';

export interface OriginalRequest {
  exchange: ExchangeSummary;
  /** The client's request frame, whole. */
  frame: FrameView;
}

export class ReplayStore {
  constructor(private readonly store: CaptureReader) {}

  head(): number {
    return this.store.head();
  }

  /** The exchange as stored (a replay's summary carries `replayOf`). */
  exchange(id: string): ExchangeSummary | undefined {
    return this.store.exchange(id);
  }

  /** The exchange and the frame that carried its client→server message. */
  original(id: string): OriginalRequest | 'not_found' | 'not_client_message' {
    const exchange = this.exchange(id);
    if (!exchange) return 'not_found';
    const seq = exchange.requestSeq ?? exchange.frameSeqs[0];
    const [frame] = seq === undefined ? [] : this.store.framesBySeq([seq]);
    if (!frame || frame.direction !== 'c2s' || frame.kind !== 'data') return 'not_client_message';
    if (exchange.kind === 'request' && exchange.requester !== 'client') return 'not_client_message';
    return { exchange, frame };
  }

  /** The sessions of a conversation, the most recently active first. */
  sessionsOf(conversationKey: string): SessionSummary[] {
    return this.store.sessionsOf(conversationKey);
  }

  session(sessionKey: string): SessionSummary | undefined {
    return this.store.session(sessionKey);
  }

  /** The tools of the session's latest successful `tools/list` (first page as answered). */
  tools(sessionKey: string): JsonObject[] {
    const ex = this.store.latestOk(sessionKey, 'tools/list');
    if (ex?.responseSeq === undefined) return [];
    const [frame] = this.store.framesBySeq([ex.responseSeq]);
    const msg = frame ? classifyText(frame.raw) : undefined;
    if (!msg || msg.kind !== 'response' || !Array.isArray(msg.result.tools)) return [];
    return msg.result.tools.filter(isJsonObject);
  }

  replayOf(exchangeId: string): string | undefined {
    return this.store.replayLinks.replayOf(exchangeId);
  }

  replays(exchangeId: string): string[] {
    return this.store.replayLinks.replays(exchangeId);
  }
}
