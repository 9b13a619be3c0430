/**
 * Which message the replay panel is open for. Kept apart from the selection on purpose: a
 * replay selects its new exchange in the timeline, and the panel must stay open through that.
 */
import { create } from 'zustand';

export interface ReplayState {
  /** The exchange being edited; `''` for the empty composer; undefined when closed. */
  openFor?: string;
  /** Bumped on every open, so reopening the same exchange starts from its captured text again. */
  generation: number;
  open(exchangeId?: string): void;
  close(): void;
}

export const useReplay = create<ReplayState>((set) => ({
  generation: 0,
  open: (exchangeId = '') => set((s) => ({ openFor: exchangeId, generation: s.generation + 1 })),
  close: () => set({ openFor: undefined }),
}));

export const openReplay = (exchangeId?: string) => useReplay.getState().open(exchangeId);
