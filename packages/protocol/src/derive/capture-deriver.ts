/**
 * Everything mcpscope derives from frames, in one place: exchanges, sessions and diagnostics.
 * The proxy's capture pipeline and any rebuild-from-frames run this same code, so a rebuild gives
 * the same tables as live capture did.
 */
import type { Frame } from '../model/frame.js';
import { classifyText, type Message } from '../model/json-rpc.js';
import type { ExchangeSummary } from '../model/exchange.js';
import { ExchangeTracker } from '../pairing/exchange-tracker.js';
import { SessionTracker } from '../session/session-tracker.js';
import type { SessionSummary } from '../session/session-summary.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export interface Derived {
  exchanges: ExchangeSummary[];
  sessions: SessionSummary[];
  diagnostics: Diagnostic[];
}

export class CaptureDeriver {
  private readonly exchanges = new ExchangeTracker();
  private readonly sessions = new SessionTracker();

  /** Derives what one frame changes. Summaries returned are copies, safe to keep. */
  ingest(frame: Frame, message: Message = classifyText(frame.raw)): Derived {
    const sessions: SessionSummary[] = [];
    if (frame.kind === 'data') sessions.push(this.sessions.ingestFrame(frame, message));
    const exchanges = this.exchanges.ingest(frame, message);
    for (const s of this.sessions.ingestExchanges(exchanges)) if (!sessions.includes(s)) sessions.push(s);
    const diagnostics: Diagnostic[] = [];
    if (frame.kind === 'data' && message.kind === 'invalid') {
      diagnostics.push({
        frameSeq: frame.seq,
        ...(exchanges[0] ? { exchangeId: exchanges[0].id } : {}),
        code: 'invalid-message',
        severity: 'error',
        message: `This frame is not a valid JSON-RPC message: ${message.reason}. It was forwarded unchanged.`,
      });
    }
    return { exchanges, sessions: sessions.map((s) => ({ ...s, counts: { ...s.counts } })), diagnostics };
  }

  session(sessionKey: string): SessionSummary | undefined {
    return this.sessions.get(sessionKey);
  }
}
