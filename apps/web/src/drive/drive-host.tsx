/**
 * Where the Drive panel lives: above the layout, like the replay panel, loaded on first use; and
 * the top bar's button that opens it.
 */
import { lazy, Suspense } from 'react';
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';

export const useDriveOpen = create<{ open: boolean; set(open: boolean): void }>((set) => ({ open: false, set: (open) => set({ open }) }));

const DrivePanel = lazy(() => import('./DrivePanel.js').then((m) => ({ default: m.DrivePanel })));

export function DriveHost({ api }: { api: ApiClient }) {
  const open = useDriveOpen((s) => s.open);
  if (!open) return null;
  return (
    <Suspense fallback={<div className="replay-panel replay-loading">Loading…</div>}>
      <DrivePanel api={api} onClose={() => useDriveOpen.getState().set(false)} />
    </Suspense>
  );
}

export function DriveButton({ disabled, title }: { disabled: boolean; title?: string }) {
  return (
    <button type="button" className="small" data-testid="drive-open" disabled={disabled} title={title ?? 'Call tools from forms, read resources, get prompts, and answer what the server asks'} onClick={() => useDriveOpen.getState().set(true)}>
      Drive
    </button>
  );
}
