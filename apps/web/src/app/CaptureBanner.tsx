/**
 * Says so while capture is paused: by a full disk or a read-only file system (it resumes by
 * itself), or by the user (with Resume right there). Either way the tap still forwards every
 * request, but nothing new is stored, so the timeline is missing what happens meanwhile. The
 * status is polled with the marks (capture/capture-state.ts).
 */
import type { ApiClient } from '../api/client.js';
import { refreshCapture, useCapture } from '../capture/capture-state.js';

export function CaptureBanner({ api }: { api: ApiClient }) {
  const status = useCapture((s) => s.status);
  if (status?.state !== 'paused') return null;
  const lost = status.notRecorded.frames;
  const soFar = lost > 0 ? <> ({lost} frame{lost === 1 ? '' : 's'} so far)</> : null;
  if (status.reason === undefined) {
    return (
      <div className="banner" role="alert" data-testid="capture-banner" data-paused-by="user">
        capture paused from the dashboard: your traffic still flows through the tap, but the frames it forwards are not stored{soFar} until you resume.{' '}
        <button type="button" className="link" data-testid="capture-banner-resume" onClick={() => void api.setCapturePaused(false).then(() => refreshCapture(api))}>
          Resume capture
        </button>
      </div>
    );
  }
  return (
    <div className="banner" role="alert" data-testid="capture-banner" title={status.lastError?.message}>
      capture paused: {status.reason}. Your traffic still flows through the tap, but is not recorded
      {soFar}; capture resumes by itself once the capture file can be written.
    </div>
  );
}
