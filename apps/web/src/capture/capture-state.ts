/**
 * What the dashboard knows of the capture itself: whether it is storing (a full disk or the user
 * may have paused it) and its marks. Read from the API when the dashboard opens and each time its
 * socket (re)connects, then kept current by the proxy's `capture/update` events (a pause, a mark
 * from another tab, a full disk, the frames a pause did not store), and re-read at once after the
 * user acts here.
 */
import { create } from 'zustand';
import type { CaptureMark, CaptureStatus, ServerEvent } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';

interface CaptureState {
  status?: CaptureStatus;
  marks: readonly CaptureMark[];
}

export const useCapture = create<CaptureState>(() => ({ marks: [] }));

/** Takes a status, and the marks when given. */
function apply(status: CaptureStatus, marks?: readonly CaptureMark[]): void {
  if (!marks) return useCapture.setState({ status });
  const held = useCapture.getState();
  // Unchanged marks keep their array, so the timeline's overlay does not re-render for nothing.
  const same = held.marks.length === marks.length && held.marks.every((m, i) => m.id === marks[i]!.id);
  useCapture.setState(same ? { status } : { status, marks });
}

/** Reads the status and the marks now. */
export async function refreshCapture(api: ApiClient): Promise<void> {
  const [status, { marks }] = await Promise.all([api.capture(), api.marks()]);
  apply(status, marks);
}

/** For live-sync: reads the capture's state now and on every (re)connect, and applies what the proxy pushes. */
export function startCaptureSync(api: ApiClient): { onEvent(event: ServerEvent): void } {
  const read = () => void refreshCapture(api).catch(() => undefined); // a proxy that is restarting: the next `hello` asks again
  read();
  return {
    onEvent(event) {
      if (event.type === 'hello') read();
      else if (event.type === 'capture/update') apply(event.status, event.marks);
    },
  };
}
