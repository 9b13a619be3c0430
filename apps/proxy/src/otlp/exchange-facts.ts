/**
 * Reads what a span needs about one exchange from the capture: its session, its request frame
 * (for a propagated `traceparent`, and bodies), its other frames (progress, cancel, transport:
 * the span's events), its diagnostics' codes, and the original of a replay. The answer's frame is
 * read only when bodies are exported: a 50 MB result is not read for a span that never shows it.
 */
import { FRAME_RAW_LIMIT, exchangeVerdict, type ExchangeSummary } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import { READ_LIMIT } from './span-bodies.js';
import type { ExchangeFacts } from './span-plan.js';

export type FactsSource = Pick<CaptureReader, 'session' | 'exchange' | 'framesBySeq' | 'diagnosticsFor'>;

export function readFacts(source: FactsSource, ex: ExchangeSummary, bodies: boolean): ExchangeFacts {
  const limit = bodies ? READ_LIMIT : FRAME_RAW_LIMIT;
  // A notification's (or junk's) row is its one frame: that frame is the message, not an event.
  const requestSeq = ex.requestSeq ?? (ex.kind === 'request' ? undefined : ex.frameSeqs[0]);
  const wanted = ex.frameSeqs.filter((seq) => bodies || seq !== ex.responseSeq);
  const frames = source.framesBySeq(wanted, limit);
  // Findings are read when the row counts some, or when it failed: the verdict weighs them.
  const diagnostics = ex.diagnostics > 0 || ex.status !== 'ok' ? source.diagnosticsFor(ex) : [];
  const facts: ExchangeFacts = {
    exchange: ex,
    others: frames.filter((f) => f.seq !== requestSeq && f.seq !== ex.responseSeq),
    diagnosticCodes: [...new Set(diagnostics.map((d) => d.code))],
  };
  const verdict = exchangeVerdict({ exchange: ex, diagnostics });
  if (verdict) facts.verdict = { kind: verdict.kind, fault: verdict.fault };
  const session = source.session(ex.sessionKey);
  if (session) facts.session = session;
  const request = frames.find((f) => f.seq === requestSeq);
  if (request) facts.request = request;
  const response = bodies ? frames.find((f) => f.seq === ex.responseSeq) : undefined;
  if (response) facts.response = response;
  const original = ex.replayOf !== undefined ? source.exchange(ex.replayOf) : undefined;
  if (original) {
    const originalSession = source.session(original.sessionKey);
    facts.original = originalSession ? { exchange: original, session: originalSession } : { exchange: original };
  }
  // A session-less exchange names the conversation it joined; a session's exchanges follow the session.
  const conversationKey = ex.conversation ?? session?.conversationKey;
  if (conversationKey) facts.conversationKey = conversationKey;
  return facts;
}
