/** Reading the capture back in tests: whole frames, by session, as parsed JSON. */
import type { FrameView } from '@mcpscope/protocol';
import type { Mcpscope } from '../../src/compose/start-mcpscope.js';

export function allFrames(app: Mcpscope): FrameView[] {
  const seqs = app.store.framesAfter(0, 100_000).map((f) => f.seq);
  return app.store.framesBySeq(seqs);
}

export function dataFrames(app: Mcpscope, sessionKey: string, direction: 'c2s' | 's2c'): FrameView[] {
  return allFrames(app).filter((f) => f.sessionKey === sessionKey && f.kind === 'data' && f.direction === direction);
}

export const parsed = (frames: FrameView[]) => frames.map((f) => JSON.parse(f.raw) as unknown);

/** Order-free comparison of message lists (each message once, no more, no less). */
export const asMultiset = (messages: unknown[]) => messages.map((m) => JSON.stringify(sortKeys(m))).sort();

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)]));
  return value;
}
