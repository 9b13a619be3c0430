/**
 * Where the replay panel lives: above the layout, so it outlives the selection (a replay selects
 * its new exchange, which reloads the detail pane). The panel and Monaco load on first use.
 */
import { lazy, Suspense } from 'react';
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';

interface ReplayTarget {
  /** The exchange being edited; `''` opens the empty composer; undefined = closed. */
  exchangeId?: string;
  open(exchangeId: string): void;
  close(): void;
}

export const useReplayTarget = create<ReplayTarget>((set) => ({
  open: (exchangeId) => set({ exchangeId }),
  close: () => set({ exchangeId: undefined }),
}));

const ReplayPanel = lazy(() => import('./ReplayPanel.js').then((m) => ({ default: m.ReplayPanel })));

export function ReplayHost({ api }: { api: ApiClient }) {
  const exchangeId = useReplayTarget((s) => s.exchangeId);
  const close = useReplayTarget((s) => s.close);
  if (exchangeId === undefined) return null;
  return (
    <Suspense fallback={<div className="replay-panel replay-loading">Loading the editor…</div>}>
      <ReplayPanel key={exchangeId} api={api} exchangeId={exchangeId} onClose={close} />
    </Suspense>
  );
}
