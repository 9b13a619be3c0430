/**
 * What a queued large frame becomes once its writer is done with it (large-writer.ts), before the
 * tick that writes its row: stored, it reads its text back from the store (the tap's thread never
 * holds it) and its message from the skeleton the writer built; returned, its text is redacted
 * here, as any frame's is.
 */
import { classifyText, type Frame, type Message } from '@mcpscope/protocol';
import type { CaptureStore } from './capture-store.js';
import type { LargeResult } from './large-writer.js';
import { redactFrameBody } from '../redaction/redact-secrets.js';

/** Applies the writer's `stored` or `returned` answer to `frame`; a stored frame's message goes in `messages`. */
export function applyLargeResult(
  frame: Frame,
  result: Exclude<LargeResult, { kind: 'failed' }>,
  store: Pick<CaptureStore, 'frameRaw'>,
  messages: WeakMap<Frame, Message>,
): void {
  if (result.kind === 'returned') {
    frame.raw = redactFrameBody(frame.http?.path, result.text);
    return;
  }
  frame.stored = { chars: result.chars, bytes: result.bytes, head: result.head, pieces: result.pieces };
  // Whoever reads the whole text (an export of the batch, a listener) reads it back.
  Object.defineProperty(frame, 'raw', { enumerable: true, configurable: true, get: () => store.frameRaw(frame.seq)?.raw ?? '' });
  const message = classifyText(result.skeleton);
  if (message.kind !== 'invalid') messages.set(frame, message);
}
