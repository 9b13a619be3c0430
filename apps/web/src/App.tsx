/**
 * The dashboard's frame: top bar, sessions sidebar, filter bar, then the timeline (or the raw
 * frame view, the Connections or Readiness view, or the first-run page) beside the detail pane. It lays out the page; what keeps the
 * state in step (app/dashboard-syncs.ts) and what the view shows (app/use-view-predicate.ts) are
 * composed in app/.
 */
import { useMemo } from 'react';
import { ApiClient } from './api/client.js';
import { ConnectionBanner } from './app/ConnectionBanner.js';
import { TopbarActions } from './app/TopbarActions.js';
import { CaptureBanner } from './app/CaptureBanner.js';
import { ModeSwitch } from './app/ModeSwitch.js';
import { useDashboardSyncs } from './app/dashboard-syncs.js';
import { useKeyboard } from './app/use-keyboard.js';
import { useTheme } from './app/use-theme.js';
import { useViewPredicate } from './app/use-view-predicate.js';
import { DetailPane } from './detail/DetailPane.js';
import { FilterBar } from './filter/FilterBar.js';
import { FirstRun } from './first-run/FirstRun.js';
import { RawFrames } from './frames/RawFrames.js';
import { ConversationsSidebar } from './conversations/ConversationsSidebar.js';
import { ConversationHeader } from './conversations/ConversationHeader.js';
import { useLive } from './store/live-store.js';
import { READ_ONLY_HINT, useReadOnly } from './store/read-only.js';
import { useUi } from './store/ui-store.js';
import { Timeline } from './timeline/Timeline.js';
import { ReplayHost } from './replay/replay-host.js';
import { ConnectionsView } from './door/ConnectionsView.js';
import { ReadinessView } from './readiness/ReadinessView.js';
import { RerunHost } from './rerun/index.js';
import { DriveHost } from './drive/index.js';
import { CompareBar, CompareHost } from './compare/index.js';
import { CaptureControls } from './capture/CaptureControls.js';
import { RefusedHostBanner } from './front-door/RefusedHostBanner.js';
import { ConnectionChecklist } from './front-door/ConnectionChecklist.js';

export function App({ token }: { token: string }) {
  const api = useMemo(() => new ApiClient(token), [token]);
  useDashboardSyncs(api);
  useKeyboard();
  useTheme();
  const compiled = useViewPredicate(api);

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
          ) : mode === 'readiness' ? (
            <ReadinessView api={api} />
          ) : empty ? (
            <FirstRun api={api} />
          ) : (
            <>
              {readOnly === undefined && <ConnectionChecklist untilConnected />}
              <FilterBar compiled={compiled} />
              <ConversationHeader api={api} />
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
      <DriveHost api={api} />
      <CompareHost api={api} />
    </div>
  );
}
