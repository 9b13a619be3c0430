import { useEffect, useMemo } from 'react';
import { ApiClient } from './api/client.js';
import { startLiveSync } from './store/live-sync.js';
import { useLive } from './store/live-store.js';
import { Timeline } from './timeline/Timeline.js';
import { DetailPane } from './detail/DetailPane.js';
import { ExportMenu } from './export/index.js';

export function App({ token }: { token: string }) {
  const api = useMemo(() => new ApiClient(token), [token]);
  useEffect(() => startLiveSync(api), [api]);
  const connection = useLive((s) => s.connection);
  const error = useLive((s) => s.error);
  const count = useLive((s) => s.exchanges.ids.length);
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">mcpscope</span>
        <span className="count">{count} exchanges</span>
        <span className={`conn conn-${connection}`} data-testid="connection">{connection}</span>
        <ExportMenu api={api} filter="" />
      </header>
      {connection === 'down' && <div className="banner" role="alert">Connection to mcpscope lost{error ? `: ${error}` : ''}. Reconnecting…</div>}
      <main className="panes">
        <Timeline />
        <DetailPane api={api} />
      </main>
    </div>
  );
}
