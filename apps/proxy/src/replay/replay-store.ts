/**
 * What replay reads from the capture (the original request, its session, the session's latest
 * `tools/list`) and the one thing it writes: the link between a replay and its original, both
 * ways. The link lives in its own table beside the derived ones; frames stay untouched.
 */
import { classifyText, isJsonObject, type ExchangeSummary, type FrameView, type JsonObject, type SessionSummary } from '@mcpscope/protocol';
import type { CaptureStore } from '../capture/capture-store.js';

export interface OriginalRequest {
  exchange: ExchangeSummary;
  /** The client's request frame, whole. */
  frame: FrameView;
}

export class ReplayStore {
  constructor(private readonly store: CaptureStore) {
    store.db.exec(`
      CREATE TABLE IF NOT EXISTS replay_links (
        exchange_id TEXT PRIMARY KEY,
        replay_of TEXT NOT NULL,
        mode TEXT NOT NULL,
        ts REAL NOT NULL
      );
      CREATE INDEX IF NOT EXISTS replay_links_by_original ON replay_links(replay_of);
    `);
  }

  head(): number {
    return this.store.head();
  }

  exchange(id: string): ExchangeSummary | undefined {
    const ex = this.store.exchange(id);
    if (!ex) return undefined;
    const replayOf = this.replayOf(id);
    return replayOf === undefined ? ex : { ...ex, replayOf };
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

  session(sessionKey: string): SessionSummary | undefined {
    const row = this.store.db.prepare('SELECT summary FROM sessions WHERE session_key = ?').get(sessionKey) as { summary: string } | undefined;
    return row ? (JSON.parse(row.summary) as SessionSummary) : undefined;
  }

  /** The tools of the session's latest successful `tools/list` (first page as answered). */
  tools(sessionKey: string): JsonObject[] {
    const row = this.store.db
      .prepare(`SELECT summary FROM exchanges WHERE session_key = ? AND method = 'tools/list' AND status = 'ok' ORDER BY sort_key DESC LIMIT 1`)
      .get(sessionKey) as { summary: string } | undefined;
    if (!row) return [];
    const ex = JSON.parse(row.summary) as ExchangeSummary;
    if (ex.responseSeq === undefined) return [];
    const [frame] = this.store.framesBySeq([ex.responseSeq]);
    const msg = frame ? classifyText(frame.raw) : undefined;
    if (!msg || msg.kind !== 'response' || !Array.isArray(msg.result.tools)) return [];
    return msg.result.tools.filter(isJsonObject);
  }

  link(exchangeId: string, replayOf: string, mode: string, ts: number): void {
    this.store.db.prepare('INSERT OR REPLACE INTO replay_links (exchange_id, replay_of, mode, ts) VALUES (?, ?, ?, ?)').run(exchangeId, replayOf, mode, ts);
  }

  replayOf(exchangeId: string): string | undefined {
    const row = this.store.db.prepare('SELECT replay_of FROM replay_links WHERE exchange_id = ?').get(exchangeId) as { replay_of: string } | undefined;
    return row?.replay_of;
  }

  replays(exchangeId: string): string[] {
    const rows = this.store.db.prepare('SELECT exchange_id FROM replay_links WHERE replay_of = ? ORDER BY ts').all(exchangeId) as { exchange_id: string }[];
    return rows.map((r) => r.exchange_id);
  }
}
