/**
 * A capture read by windows, kept so while the dashboard is open: a capture held whole that grows
 * past LOCAL_LIMIT, or whose sessions come to be read by windows (session-windows.ts: filters on a
 * session's facts then need the server), becomes a windowed one in place (the filter, the selection, follow-tail and
 * every row's position stay), traffic re-reads the window, and the live index keeps only the
 * newest LIVE_HELD rows and the pinned ones (the selection, the rows picked to compare), so memory
 * stays flat however long the traffic runs.
 */
import type { ExchangeSummary } from '@mcpscope/protocol';
import type { LiveStore } from './live-store.js';
import { LIVE_HELD, LOCAL_LIMIT, useWindow, type WindowFetcher } from './window-store.js';
import { useSessionsWindow } from './session-windows.js';

export function startWindowMode(live: LiveStore, fetcher: WindowFetcher, pinned: () => Iterable<string>): () => void {
  const hold = () => live.holdNewest(LIVE_HELD, pinned);
  if (useWindow.getState().windowed) hold();
  const stopWindow = useWindow.subscribe((s, prev) => {
    if (s.windowed && !prev.windowed) hold();
  });
  const stopLive = live.subscribe((s, prev) => {
    if (useWindow.getState().windowed) {
      if (s.head !== prev.head) fetcher.refresh();
    } else if (s.index.size > LOCAL_LIMIT || useSessionsWindow.getState().windowed) {
      const rows: ExchangeSummary[] = new Array(s.view.size);
      for (let i = 0; i < rows.length; i++) rows[i] = s.index.get(s.view.ids[i]!)!;
      fetcher.adopt(rows, s.index.size);
    }
  });
  return () => (stopWindow(), stopLive());
}
