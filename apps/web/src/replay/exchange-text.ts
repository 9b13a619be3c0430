/**
 * The request and the answer of an exchange, as text, from its detail: what the replay panel
 * edits and diffs, and what "Re-run failed calls" sends again and compares.
 */
import type { ExchangeDetail, FrameView } from '@mcpscope/protocol';

/** The answer's text: the response frame, else the last thing the server side said. */
export function responseRaw(detail: ExchangeDetail | undefined): string | undefined {
  if (!detail) return undefined;
  const { exchange, frames } = detail;
  const answer = frames.find((f) => f.seq === exchange.responseSeq) ?? [...frames].reverse().find((f) => f.direction === 's2c' || f.kind === 'transport');
  return answer?.raw;
}

export function requestFrame(detail: ExchangeDetail): FrameView | undefined {
  const seq = detail.exchange.requestSeq ?? detail.exchange.frameSeqs[0];
  return detail.frames.find((f) => f.seq === seq);
}

export function requestRaw(detail: ExchangeDetail): string {
  return requestFrame(detail)?.raw ?? '';
}
