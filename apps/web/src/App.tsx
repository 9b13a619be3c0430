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
import { useWindow } from './store/window-store.js';
import { Timeline } from './timeline/Timeline.js';
import { ReplayHost } from './replay/replay-host.js';
import { ConnectionsView } from './door/ConnectionsView.js';
import { ReadinessView } from './readiness/ReadinessView.js';
import { RerunHost } from './rerun/index.js';
import { DriveHost } from './drive/index.js';
import { InterceptHost } from './intercept/index.js';
import { CompareBar, CompareHost } from './compare/index.js';
import { CaptureControls } from './capture/CaptureControls.js';
import { RefusedHostBanner } from './front-door/RefusedHostBanner.js';
import { ConnectionChecklist } from './front-door/ConnectionChecklist.js';
import { PanelBoundary } from './ui/PanelBoundary.js';

export function App({ token }: { token: string }) {
  const api = useMemo(() => new ApiClient(token), [token]);
  useDashboardSyncs(api);
  useKeyboard();
  useTheme();
  const compiled = useViewPredicate(api);

  const readOnly = useReadOnly((s) => s.file);
  const connection = useLive((s) => s.connection);
  const loaded = useLive((s) => s.loaded);
  const windowed = useWindow((s) => s.windowed);
  const captureTotal = useWindow((s) => s.captureTotal);
  const held = useLive((s) => s.index.size);
  const total = windowed ? captureTotal : held;
  const mode = useUi((s) => s.mode);
  const detailOpen = useUi((s) => s.detailOpen);
  const selected = useUi((s) => s.selected);
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
        <PanelBoundary name="the sidebar">
          <ConversationsSidebar />
        </PanelBoundary>
        <main className="main">
          {mode === 'frames' ? (
            <PanelBoundary name="the raw frames view" resetKey={mode}>
              <RawFrames api={api} />
            </PanelBoundary>
          ) : mode === 'connections' ? (
            <PanelBoundary name="the Connections view" resetKey={mode}>
              <ConnectionsView />
            </PanelBoundary>
          ) : mode === 'readiness' ? (
            <PanelBoundary name="the Readiness view" resetKey={mode}>
              <ReadinessView api={api} />
            </PanelBoundary>
          ) : empty ? (
            <PanelBoundary name="the first-run page" resetKey={mode}>
              <FirstRun api={api} />
            </PanelBoundary>
          ) : (
            <>
              {readOnly === undefined && (
                <PanelBoundary name="the connection checklist">
                  <ConnectionChecklist untilConnected />
                </PanelBoundary>
              )}
              <PanelBoundary name="the filter bar">
                <FilterBar compiled={compiled} />
              </PanelBoundary>
              <PanelBoundary name="the conversation header">
                <ConversationHeader api={api} />
              </PanelBoundary>
              <PanelBoundary name="the compare bar">
                <CompareBar />
              </PanelBoundary>
              <div className={`panes${detailOpen ? ' with-detail' : ''}`}>
                <PanelBoundary name="the timeline">
                  <Timeline />
                </PanelBoundary>
                {detailOpen && (
                  <PanelBoundary name="the detail pane" resetKey={selected}>
                    <DetailPane api={api} />
                  </PanelBoundary>
                )}
              </div>
            </>
          )}
        </main>
      </div>
      <PanelBoundary name="the replay panel">
        <ReplayHost api={api} />
      </PanelBoundary>
      <PanelBoundary name="the re-run panel">
        <RerunHost api={api} />
      </PanelBoundary>
      <PanelBoundary name="the drive panel">
        <DriveHost api={api} />
      </PanelBoundary>
      <PanelBoundary name="the rules panel">
        <InterceptHost api={api} />
      </PanelBoundary>
      <PanelBoundary name="the compare panel">
        <CompareHost api={api} />
      </PanelBoundary>
    </div>
  );
}
