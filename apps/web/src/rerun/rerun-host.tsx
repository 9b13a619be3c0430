/**
 * Where "Re-run failed calls" lives: a top-bar button that opens the panel, and the panel
 * mounted above the layout (so it outlives the selection, like the replay panel). The panel and
 * Monaco's diff load on first use.
 */
import { lazy, Suspense } from 'react';
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';

const RerunPanel = lazy(() => import('./RerunPanel.js').then((m) => ({ default: m.RerunPanel })));

export const useRerunPanel = create<{ open: boolean; show(): void; hide(): void }>((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

export function RerunButton({ disabled = false }: { disabled?: boolean }) {
  return (
    <button type="button" className="small" data-testid="rerun-open" disabled={disabled} title={disabled ? 'Read-only: nothing can be sent from a file' : 'After a fix: send the failed calls of the view (or the selected call) again, each in a fresh session, and compare'} onClick={() => useRerunPanel.getState().show()}>
      Re-run failed…
    </button>
  );
}

export function RerunHost({ api }: { api: ApiClient }) {
  const open = useRerunPanel((s) => s.open);
  const hide = useRerunPanel((s) => s.hide);
  if (!open) return null;
  return (
    <Suspense fallback={<div className="rerun-panel">Loading…</div>}>
      <RerunPanel api={api} onClose={hide} />
    </Suspense>
  );
}
