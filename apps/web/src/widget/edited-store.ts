/**
 * Which captured calls' widgets show edited data now, so that every place naming the widget (the
 * Widget tab's label in the detail pane, the frame's label) can say so.
 */
import { create } from 'zustand';

interface EditedState {
  /** Exchange ids whose widget runs on edited data. */
  edited: ReadonlySet<string>;
  mark(exchangeId: string, edited: boolean): void;
}

export const useWidgetEdited = create<EditedState>((set) => ({
  edited: new Set(),
  mark: (exchangeId, edited) =>
    set((s) => {
      if (s.edited.has(exchangeId) === edited) return s;
      const next = new Set(s.edited);
      if (edited) next.add(exchangeId);
      else next.delete(exchangeId);
      return { edited: next };
    }),
}));
