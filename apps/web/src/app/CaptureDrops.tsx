/**
 * Frames the tap forwarded but could not record, in the top bar (nothing while there are none).
 * Capture runs behind a bounded queue so that it never slows the user's traffic; when the queue
 * is full, or capture has stopped, frames are counted instead of recorded, and this is how the
 * user knows the capture has holes. Polled (use-polled.ts).
 */
import type { ApiClient } from '../api/client.js';
import { usePolled } from './use-polled.js';

export function CaptureDrops({ api }: { api: ApiClient }) {
  // Nothing is recorded live (`mcpscope open`): nothing can be dropped, stop asking.
  const status = usePolled(api, (a) => a.capture(), (s) => s.thread === 'off');
  if (!status || (status.dropped.frames === 0 && !status.failed)) return null;
  const mb = (chars: number) => `${(chars / 1e6).toFixed(1)} M characters`;
  const title = [
    status.failed ? `Capture stopped: ${status.failed}. Traffic is still forwarded.` : 'The tap forwarded these frames but could not record them: capture was behind by its whole queue, and traffic is never slowed for it.',
    `${status.dropped.frames} frames (${mb(status.dropped.chars)}) not recorded; ${status.queued.frames} waiting to be written.`,
    status.limits ? `Queue: ${status.limits.frames} frames or ${mb(status.limits.chars)}.` : '',
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <span className="capture-drops" data-testid="capture-drops" title={title}>
      {status.failed ? 'Capture stopped · ' : ''}
      <b>{status.dropped.frames} frames not recorded</b>
    </span>
  );
}
