/**
 * Which exchanges the user picked to compare (ctrl/cmd-click in the timeline, or "Pick to
 * compare" in the detail pane): at most two, oldest pick dropped first, and whether the
 * comparison is open. The timeline reads `picked` per rendered row, so it stays a tiny array.
 */
import { create } from 'zustand';

export interface ComparePicks {
  picked: readonly string[];
  open: boolean;
  toggle(id: string): void;
  clear(): void;
  show(): void;
  hide(): void;
}

/** Adds `id` (dropping the older pick beyond two) or removes it when it is already picked. */
export function togglePick(picked: readonly string[], id: string): string[] {
  if (picked.includes(id)) return picked.filter((p) => p !== id);
  return [...picked, id].slice(-2);
}

export const useCompare = create<ComparePicks>((set) => ({
  picked: [],
  open: false,
  toggle: (id) => set((s) => ({ picked: togglePick(s.picked, id) })),
  clear: () => set({ picked: [], open: false }),
  show: () => set((s) => ({ open: s.picked.length === 2 })),
  hide: () => set({ open: false }),
}));
