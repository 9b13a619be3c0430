/**
 * Which exchange a raw frame belongs to: the one whose `frameSeqs` holds it. An exchange starts at
 * or before each of its frames, so the search walks back from the frame's place in capture order
 * (the request is the row itself; an answer or a progress note is a few rows back). Runs when a
 * frame is opened, never per row.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';
import { lowerBound, type ExchangeIndex } from '../store/exchange-index.js';

export function exchangesOfFrame(index: ExchangeIndex, seq: number): ExchangeSummary[] {
  const found: ExchangeSummary[] = [];
  // Batch items `seq.N` sort just after `seq`, so start past all of them.
  for (let at = lowerBound(index.ids, seq + 1) - 1; at >= 0; at--) {
    const ex = index.get(index.ids[at]!)!;
    if (ex.frameSeqs.includes(seq)) found.push(ex);
    // The exchanges of one frame (a batch's items) sit together: past them, stop.
    else if (found.length > 0) break;
  }
  return found.reverse();
}
