/**
 * What the dashboard knows of the capture itself: whether it is storing (a full disk or the user
 * may have paused it) and its marks. Polled together, every few seconds (both change on a click
 * or a rare failure, and one small request is nothing), and re-read at once after the user acts.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { CaptureMark, CaptureStatus } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';

const POLL_MS = 3000;

interface CaptureState {
  status?: CaptureStatus;
  marks: readonly CaptureMark[];
}

export const useCapture = create<CaptureState>(() => ({ marks: [] }));

/** Reads the status and the marks now. */
export async function refreshCapture(api: ApiClient): Promise<void> {
  const [status, { marks }] = await Promise.all([api.capture(), api.marks()]);
  const held = useCapture.getState();
  // Unchanged marks keep their array, so the timeline's overlay does not re-render for nothing.
  const same = held.marks.length === marks.length && held.marks.every((m, i) => m.id === marks[i]!.id);
  useCapture.setState(same ? { status } : { status, marks });
}

/** Keeps the capture state current while the dashboard is open. */
export function useCaptureSync(api: ApiClient): void {
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      await refreshCapture(api).catch(() => undefined); // a proxy that is restarting: ask again later
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api]);
}
