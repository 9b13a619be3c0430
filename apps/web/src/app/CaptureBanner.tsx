/**
 * Says so while capture is paused: by a full disk or a read-only file system (it resumes by
 * itself), or by the user (with Resume right there); and, once capture has fallen behind a large
 * write and dropped frames (CapturePipeline's held bound), how many. Either way the tap still forwards every
 * request, but nothing new is stored, so the timeline is missing what happens meanwhile. The
 * status comes with the marks, pushed by the proxy as it changes (capture/capture-state.ts).
 */
import type { ApiClient } from '../api/client.js';
import { refreshCapture, useCapture } from '../capture/capture-state.js';

export function CaptureBanner({ api }: { api: ApiClient }) {
  const status = useCapture((s) => s.status);
  const behind = status?.fellBehind;
  if (status?.state !== 'paused') {
    if (!behind) return null;
    return (
      <div className="banner" role="status" data-testid="capture-behind">
        capture fell behind while a large frame was being written: {behind.frames} frame{behind.frames === 1 ? ' was' : 's were'} forwarded but not stored (the latest at{' '}
        {new Date(behind.at).toLocaleTimeString()}), so some exchanges may lack their request or answer.
      </div>
    );
  }
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
