/** What part a frame plays in its exchange, for the detail pane's headings. */
import type { ExchangeSummary, FrameView } from '@mcpscope/protocol';

export type FrameRole = 'request' | 'response' | 'progress' | 'cancel' | 'notification' | 'transport' | 'log' | 'frame';

export function frameRole(frame: FrameView, ex: ExchangeSummary): FrameRole {
  if (frame.kind === 'transport') return 'transport';
  if (frame.kind === 'log') return 'log';
  if (frame.seq === ex.requestSeq) return 'request';
  if (frame.seq === ex.responseSeq) return 'response';
  if (frame.raw.includes('"notifications/progress"')) return 'progress';
  if (frame.raw.includes('"notifications/cancelled"')) return 'cancel';
  if (ex.kind === 'notification') return 'notification';
  return 'frame';
}

export const ROLE_LABELS: Readonly<Record<FrameRole, string>> = {
  request: 'Request',
  response: 'Response',
  progress: 'Progress',
  cancel: 'Cancellation',
  notification: 'Notification',
  transport: 'Transport event',
  log: 'Server log',
  frame: 'Frame',
};
