/**
 * The user's columns: which are chosen and how wide each was dragged, remembered in localStorage
 * (per browser profile, like the theme), so the table looks the same after a reload.
 */
import { create } from 'zustand';
import { COLUMN_SPECS, specOf, type ColumnId } from './column-layout.js';

const KEY = 'mcpscope.columns';

interface Saved {
  hidden: ColumnId[];
  widths: Partial<Record<ColumnId, number>>;
}

export interface ColumnPrefs {
  chosen: ReadonlySet<ColumnId>;
  widths: Partial<Record<ColumnId, number>>;
  toggle(id: ColumnId): void;
  resize(id: ColumnId, width: number): void;
  reset(): void;
}

const known = new Set<string>(COLUMN_SPECS.map((c) => c.id));

function load(): Saved {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<Saved> | null;
    const hidden = Array.isArray(saved?.hidden) ? saved.hidden.filter((id): id is ColumnId => known.has(id)) : [];
    const widths: Partial<Record<ColumnId, number>> = {};
    for (const [id, w] of Object.entries(saved?.widths ?? {})) if (known.has(id) && typeof w === 'number' && Number.isFinite(w)) widths[id as ColumnId] = w;
    return { hidden, widths };
  } catch {
    return { hidden: [], widths: {} };
  }
}

function save(chosen: ReadonlySet<ColumnId>, widths: Partial<Record<ColumnId, number>>): void {
  const hidden = COLUMN_SPECS.filter((c) => !chosen.has(c.id)).map((c) => c.id);
  try {
    localStorage.setItem(KEY, JSON.stringify({ hidden, widths } satisfies Saved));
  } catch {
    // Storage full or disabled: the choice still holds for this page.
  }
}

const initial = typeof localStorage === 'undefined' ? { hidden: [], widths: {} } : load();

export const useColumnPrefs = create<ColumnPrefs>((set) => ({
  chosen: new Set(COLUMN_SPECS.map((c) => c.id).filter((id) => !initial.hidden.includes(id))),
  widths: initial.widths,
  toggle: (id) =>
    set((s) => {
      // The method names the row: it cannot be hidden.
      if (id === 'method') return {};
      const chosen = new Set(s.chosen);
      if (chosen.has(id)) chosen.delete(id);
      else chosen.add(id);
      save(chosen, s.widths);
      return { chosen };
    }),
  resize: (id, width) =>
    set((s) => {
      const widths = { ...s.widths, [id]: Math.max(specOf(id).min, Math.round(width)) };
      save(s.chosen, widths);
      return { widths };
    }),
  reset: () =>
    set(() => {
      const chosen = new Set(COLUMN_SPECS.map((c) => c.id));
      save(chosen, {});
      return { chosen, widths: {} };
    }),
}));
