/**
 * What replay reads from the capture (the original request, its session, the session's latest
 * `tools/list`) and the one thing it writes: the link between a replay and its original, both
 * ways. The link lives in the store's `replay_links` table (capture/replay-links.ts), beside the
 * derived ones; frames stay untouched.
 */
import { classifyText, isJsonObject, type ExchangeSummary, type FrameView, type JsonObject, type ReplayLinks, type SessionSummary } from '@mcpscope/protocol';
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
    return this.listed(sessionKey, 'tools/list', 'tools').items;
  }

  /** The items of the session's latest successful list of a kind (`prompts/list` → `prompts`), and its exchange. */
  listed(sessionKey: string, method: string, field: string): { exchangeId?: string; items: JsonObject[] } {
    const ex = this.store.latestOk(sessionKey, method);
    if (ex?.responseSeq === undefined) return { items: [] };
    const [frame] = this.store.framesBySeq([ex.responseSeq]);
    const msg = frame ? classifyText(frame.raw) : undefined;
    const items = msg?.kind === 'response' ? msg.result[field] : undefined;
    return { exchangeId: ex.id, items: Array.isArray(items) ? items.filter(isJsonObject) : [] };
  }

  /** Links a replay to its original; call it before the replay's request frame is written. */
  link(exchangeId: string, replayOf: string, mode: string, ts: number): void {
    this.store.replayLinks.link(exchangeId, replayOf, mode, ts);
  }

  replayOf(exchangeId: string): string | undefined {
    return this.store.replayLinks.replayOf(exchangeId);
  }

  replays(exchangeId: string): string[] {
    return this.store.replayLinks.replays(exchangeId);
  }

  /** The replay links of an exchange; undefined when there is no such exchange. */
  links(exchangeId: string): ReplayLinks | undefined {
    if (!this.exchange(exchangeId)) return undefined;
    const links: ReplayLinks = { replays: this.replays(exchangeId) };
    const replayOf = this.replayOf(exchangeId);
    if (replayOf !== undefined) links.replayOf = replayOf;
    return links;
  }
}
