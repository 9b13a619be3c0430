/**
 * Where the Rules panel lives (above the layout, loaded on first use), the poll that keeps the
 * intercept state fresh, a notice when a frame is paused with the panel closed, and the top bar's
 * button with the count of held frames.
 */
import { lazy, Suspense } from 'react';
import type { ApiClient } from '../api/client.js';
import { useIntercept, useInterceptPoll } from './intercept-store.js';

const RulesPanel = lazy(() => import('./RulesPanel.js').then((m) => ({ default: m.RulesPanel })));

export function InterceptHost({ api }: { api: ApiClient }) {
  useInterceptPoll(api);
  const open = useIntercept((s) => s.open);
  const held = useIntercept((s) => s.state?.held.length ?? 0);
  if (!open) {
    if (held === 0) return null;
    return (
      <button type="button" className="intercept-notice" data-testid="intercept-notice" role="alert" onClick={() => useIntercept.getState().setOpen(true)}>
        ⏸ {held} frame{held === 1 ? '' : 's'} paused by a rule — open to edit, release or drop
      </button>
    );
  }
  return (
    <Suspense fallback={<div className="replay-panel replay-loading">Loading…</div>}>
      <RulesPanel client={api} onClose={() => useIntercept.getState().setOpen(false)} />
    </Suspense>
  );
}

export function RulesButton() {
  const held = useIntercept((s) => s.state?.held.length ?? 0);
  const rules = useIntercept((s) => s.state?.rules.filter((r) => r.enabled).length ?? 0);
  const available = useIntercept((s) => s.available);
  if (!available) return null;
  return (
    <button type="button" className="small" data-testid="intercept-open" title="Rules: pause, delay, fail or change traffic on purpose" onClick={() => useIntercept.getState().setOpen(true)}>
      Rules{rules > 0 ? ` (${rules})` : ''}
      {held > 0 && <span className="intercept-badge" data-testid="intercept-badge" title={`${held} frame${held === 1 ? '' : 's'} paused`}>{held}</span>}
    </button>
  );
}
