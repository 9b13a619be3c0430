/**
 * Says so while capture is paused (a full disk, a read-only file system): the tap still forwards
 * every request, but nothing new is stored, so the timeline is missing what happens meanwhile.
 * Polled, like the OTLP status: a pause is rare, and one small request every few seconds is nothing.
 */
import { useCallback } from 'react';
import type { ApiClient } from '../api/client.js';
import { usePolled } from '../lib/use-polled.js';

const POLL_MS = 3000;

export function CaptureBanner({ api }: { api: ApiClient }) {
  const status = usePolled(useCallback(() => api.capture(), [api]), POLL_MS);
  if (status?.state !== 'paused') return null;
  const lost = status.notRecorded.frames;
  return (
    <div className="banner" role="alert" data-testid="capture-banner" title={status.lastError?.message}>
      capture paused: {status.reason}. Your traffic still flows through the tap, but is not recorded
      {lost > 0 ? <> ({lost} frame{lost === 1 ? '' : 's'} so far)</> : null}; capture resumes by itself once the capture file can be written.
    </div>
  );
}
