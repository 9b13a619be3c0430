/**
 * The dashboard's frame: top bar, sessions sidebar, filter bar, then the timeline (or the raw
 * frame view, or the first-run page) beside the detail pane.
 */
import { READ_ONLY_HINT, useLoadReadOnly, useReadOnly } from './app/read-only.js';
import { useEffect, useMemo } from 'react';
import type { ServerEvent } from '@mcpscope/protocol';
import { ApiClient } from './api/client.js';
import { ConnectionBanner } from './app/ConnectionBanner.js';
import { TopbarActions } from './app/TopbarActions.js';
import { CaptureBanner } from './app/CaptureBanner.js';
import { useKeyboard } from './app/use-keyboard.js';
import { DetailPane } from './detail/DetailPane.js';
import { FilterBar } from './filter/FilterBar.js';
import { buildViewFilter } from './filter/filter-lang.js';
import { useSearch } from './filter/server-search.js';
import { useServerSearch } from './filter/use-server-search.js';
import { FirstRun } from './first-run/FirstRun.js';
import { RawFrames } from './frames/RawFrames.js';
import { ConversationsSidebar } from './conversations/ConversationsSidebar.js';
import { ConversationHeader } from './conversations/ConversationHeader.js';
import { useConversationView } from './conversations/use-conversation-view.js';
import { startLiveSync } from './store/live-sync.js';
import { useLive } from './store/live-store.js';
import { useUi } from './store/ui-store.js';
import { Timeline } from './timeline/Timeline.js';
import { ReplayHost } from './replay/replay-host.js';
import { ConnectionsView } from './door/ConnectionsView.js';
import { startDoorSync } from './door/door-sync.js';
import { RerunHost } from './rerun/index.js';
import { CompareBar, CompareHost } from './compare/index.js';
import { CaptureControls } from './capture/CaptureControls.js';
import { startCaptureSync } from './capture/capture-state.js';
import { orderKey } from './store/exchange-index.js';
import { RefusedHostBanner } from './front-door/RefusedHostBanner.js';
import { ConnectionChecklist } from './front-door/ConnectionChecklist.js';

function ModeSwitch() {
  const mode = useUi((s) => s.mode);
  return (
    <span className="segmented" role="tablist" aria-label="View">
      <button type="button" role="tab" aria-selected={mode === 'exchanges'} className={mode === 'exchanges' ? 'on' : ''} onClick={() => useUi.getState().setMode('exchanges')}>
        Exchanges
      </button>
      <button type="button" role="tab" aria-selected={mode === 'frames'} data-testid="raw-switch" className={mode === 'frames' ? 'on' : ''} onClick={() => useUi.getState().setMode('frames')}>
        Raw frames
      </button>
      <button type="button" role="tab" aria-selected={mode === 'connections'} data-testid="connections-switch" className={mode === 'connections' ? 'on' : ''} title="Every HTTP request at the tap, and each client's connection flow (OAuth included)" onClick={() => useUi.getState().setMode('connections')}>
        Connections
      </button>
    </span>
  );
}

export function App({ token }: { token: string }) {
  const api = useMemo(() => new ApiClient(token), [token]);
  useEffect(() => {
    const door = startDoorSync(api);
    const capture = startCaptureSync(api);
    const onEvent = (event: ServerEvent) => (door.onEvent(event), capture.onEvent(event));
    const stop = startLiveSync(api, useLive, { onEvent, socketParams: door.socketParams });
    return () => (stop(), door.stop());
  }, [api]);
  useKeyboard();
  const theme = useUi((s) => s.theme);
  useEffect(() => void (document.documentElement.dataset.theme = theme), [theme]);

  const filter = useUi((s) => s.filter);
  const session = useUi((s) => s.session);
  const since = useUi((s) => s.since);
  // A filter summaries cannot answer is searched in the capture; the view admits what it found.
  const searchVersion = useSearch((s) => s.version);
  const compiled = useMemo(() => {
    const built = buildViewFilter(filter, session, (key) => useLive.getState().sessions.get(key), useSearch.getState().matches);
    if (since === undefined) return built;
    // "Clear": rows of frames up to `since` stay in the capture but leave the view.
    const { predicate } = built;
    return { ...built, predicate: (ex: Parameters<typeof predicate>[0]) => orderKey(ex.id) >= since + 1 && predicate(ex) };
  }, [filter, session, searchVersion, since]);
  useServerSearch(api, compiled.serverText);
  useEffect(() => useLive.getState().setPredicate(compiled.predicate), [compiled]);
  useConversationView(compiled.predicate);

  useLoadReadOnly(api);
  const readOnly = useReadOnly((s) => s.file);
  const connection = useLive((s) => s.connection);
  const loaded = useLive((s) => s.loaded);
  const total = useLive((s) => s.index.size);
  const mode = useUi((s) => s.mode);
  const detailOpen = useUi((s) => s.detailOpen);
  const empty = loaded && total === 0;

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">mcpscope</span>
        <ModeSwitch />
        <CaptureControls api={api} />
        <span className="count" data-testid="count">{total} exchange{total === 1 ? '' : 's'}</span>
        <span className="spacer" />
        <TopbarActions api={api} />
        {readOnly !== undefined ? (
          <span className="conn conn-readonly" data-testid="connection" title={READ_ONLY_HINT}>read-only: {readOnly}</span>
        ) : (
          <span className={`conn conn-${connection}`} data-testid="connection" title="Live connection to the proxy">{connection === 'rejected' ? 'token refused' : connection}</span>
        )}
      </header>
      <ConnectionBanner />
      <CaptureBanner api={api} />
      {readOnly === undefined && <RefusedHostBanner api={api} />}
      <div className="layout">
        <ConversationsSidebar />
        <main className="main">
          {mode === 'frames' ? (
            <RawFrames api={api} />
          ) : mode === 'connections' ? (
            <ConnectionsView />
          ) : empty ? (
            <FirstRun api={api} />
          ) : (
            <>
              {readOnly === undefined && <ConnectionChecklist untilConnected />}
              <FilterBar compiled={compiled} />
              <ConversationHeader />
              <CompareBar />
              <div className={`panes${detailOpen ? ' with-detail' : ''}`}>
                <Timeline />
                {detailOpen && <DetailPane api={api} />}
              </div>
            </>
          )}
        </main>
      </div>
      <ReplayHost api={api} />
      <RerunHost api={api} />
      <CompareHost api={api} />
    </div>
  );
}
