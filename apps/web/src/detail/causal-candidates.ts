/**
 * The exchanges that may be causally linked to the open one, read from the index (summaries
 * only; the HTTP link that makes a match exact is in the frames, fetched by use-causal-links):
 * for a server→client request, the calls of its session open when it was sent; for a call, the
 * server's requests of its session sent while it was open. Runs once per opened exchange, never
 * per row: a scan of the index is a millisecond at 100,000 rows.
 */
import { isServerToClientRequest, isToolCall, openAt, type ExchangeSummary } from '@mcpscope/protocol';
import { lowerBound, orderKey, type ExchangeIndex } from '../store/exchange-index.js';

/** At most this many candidates are fetched to be told apart exactly; more is a pathological capture. */
export const CANDIDATE_CAP = 20;

const span = (ex: ExchangeSummary) => ({ id: ex.id, sessionKey: ex.sessionKey, startTs: ex.startTs, ...(ex.endTs !== undefined ? { endTs: ex.endTs } : {}) });

/** Calls of the request's session that were open when it was sent, newest first. */
export function candidateCalls(index: ExchangeIndex, request: ExchangeSummary): ExchangeSummary[] {
  const found: ExchangeSummary[] = [];
  // A call opens before the request it causes, so only rows before it in capture order qualify.
  for (let at = lowerBound(index.ids, orderKey(request.id)) - 1; at >= 0 && found.length < CANDIDATE_CAP; at--) {
    const ex = index.get(index.ids[at]!)!;
    if (ex.sessionKey === request.sessionKey && isToolCall(ex) && openAt(span(ex), request.startTs)) found.push(ex);
  }
  return found;
}

/** Server→client requests of the call's session sent while it was open, oldest first. */
export function candidateRequests(index: ExchangeIndex, call: ExchangeSummary): ExchangeSummary[] {
  const found: ExchangeSummary[] = [];
  const end = call.endTs ?? Infinity;
  for (let at = lowerBound(index.ids, orderKey(call.id)) + 1; at < index.ids.length && found.length < CANDIDATE_CAP; at++) {
    const ex = index.get(index.ids[at]!)!;
    // Capture order follows time: once rows start after the answer, none can fall inside the call.
    if (ex.startTs > end) break;
    if (ex.sessionKey === call.sessionKey && isServerToClientRequest(ex)) found.push(ex);
  }
  return found;
}

export { span as summarySpan };
