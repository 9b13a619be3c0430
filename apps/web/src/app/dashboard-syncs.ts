/**
 * The dashboard's state kept in step with the proxy, composed in one place: the live store
 * (exchanges, sessions, frames) owns the one WebSocket; the door records and the capture status
 * ride on it (each event is handed to both; the socket resumes from the door's cursor). Also the
 * read-only answer, asked once. Stopping stops them all.
 */
import { useEffect } from 'react';
import type { ServerEvent } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { startCaptureSync } from '../capture/capture-state.js';
import { startDoorSync } from '../door/door-sync.js';
import { startLiveSync } from '../store/live-sync.js';
import { useLive } from '../store/live-store.js';
import { WindowFetcher, setWindowFetcher } from '../store/window-store.js';
import { startWindowMode } from '../store/window-mode.js';
import { useUi } from '../store/ui-store.js';
import { useCompare } from '../compare/index.js';
import { useLoadReadOnly } from '../store/read-only.js';

export function startDashboardSyncs(api: ApiClient): () => void {
  const door = startDoorSync(api);
  const capture = startCaptureSync(api);
  const onEvent = (event: ServerEvent) => (door.onEvent(event), capture.onEvent(event));
  const stop = startLiveSync(api, useLive, { onEvent, socketParams: door.socketParams });
  // A windowed capture: traffic moves the window's rows and counts (one read in flight at a time);
  // the live index keeps the newest rows and what the user holds (the selection, compare's picks).
  const fetcher = new WindowFetcher(api);
  setWindowFetcher(fetcher);
  const pinned = () => {
    const { selected } = useUi.getState();
    const { picked } = useCompare.getState();
    return selected === undefined ? picked : [selected, ...picked];
  };
  const stopWindow = startWindowMode(useLive, fetcher, pinned);
  return () => (stop(), door.stop(), stopWindow(), setWindowFetcher(undefined));
}

export function useDashboardSyncs(api: ApiClient): void {
  useEffect(() => startDashboardSyncs(api), [api]);
  useLoadReadOnly(api);
}
