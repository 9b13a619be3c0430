/**
 * The top bar's actions on the whole capture. The export module (apps/web/src/export,
 * `ExportMenu({ api, filter })`) is wired in here at merge time; theme and legend live here too.
 */
import { useState } from 'react';
import type { ApiClient } from '../api/client.js';
import { useUi } from '../store/ui-store.js';
import { Legend } from '../timeline/Legend.js';

export function TopbarActions(_props: { api: ApiClient }) {
  const theme = useUi((s) => s.theme);
  const [legend, setLegend] = useState(false);
  return (
    <div className="topbar-actions">
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
