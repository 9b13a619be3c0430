/**
 * The top bar's actions on the whole capture: compose a new request, export/import, save as a
 * regression test, the legend
 * and the theme.
 */
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { Legend } from '../timeline/Legend.js';
import { useReplayTarget } from '../replay/replay-host.js';
import { ExportMenu, SaveAsTestButton } from '../export/index.js';
import { serverViewFilter } from '../filter/filter-lang.js';
import { OtlpStatus } from './OtlpStatus.js';
import { RerunButton } from '../rerun/index.js';
import { DriveButton } from '../drive/index.js';
import { RulesButton } from '../intercept/index.js';
import { READ_ONLY_HINT, useReadOnly } from '../store/read-only.js';

export function TopbarActions({ api }: { api: ApiClient }) {
  const theme = useUi((s) => s.theme);
  const filter = useUi((s) => s.filter);
  const session = useUi((s) => s.session);
  // Export what the timeline shows: the filter text, narrowed to the chosen session.
  const viewFilter = serverViewFilter(filter, session);
  const [legend, setLegend] = useState(false);
  const retention = useLive((s) => s.retention);
  const readOnly = useReadOnly((s) => s.file !== undefined);
  return (
    <div className="topbar-actions">
      <OtlpStatus api={api} />
      {retention && retention.removedFrames > 0 && (
        <span className="retention-note" data-testid="retention" title={`Retention (--max-frames / --max-bytes) keeps the capture file bounded. The oldest frame still stored is #${retention.oldestSeq}.`}>
          {retention.removedFrames} oldest frames removed by retention
        </span>
      )}
      <button type="button" className="small" data-testid="replay-compose" disabled={readOnly} title={readOnly ? READ_ONLY_HINT : 'Write a request from a template and send it to the server'} onClick={() => useReplayTarget.getState().open('')}>
        Compose
      </button>
      <DriveButton disabled={readOnly} {...(readOnly ? { title: READ_ONLY_HINT } : {})} />
      <RulesButton />
      <RerunButton disabled={readOnly} />
      <ExportMenu api={api} filter={viewFilter} />
      <SaveAsTestButton api={api} filter={viewFilter} />
      <button type="button" className="small" aria-expanded={legend} data-testid="legend-button" onClick={() => setLegend(!legend)}>
        Legend
      </button>
      <button type="button" className="small" data-testid="theme-toggle" onClick={() => useUi.getState().toggleTheme()} title="Switch light/dark theme">
        {theme === 'dark' ? '☀ Light' : '☾ Dark'}
      </button>
      {legend && <Legend onClose={() => setLegend(false)} />}
    </div>
  );
}
