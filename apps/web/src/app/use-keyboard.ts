/**
 * Dashboard keys: ↑/↓ or k/j move the selection, Enter opens it, Esc closes the detail (or
 * clears the selection), `/` focuses the filter, End resumes follow-tail. Keys typed into a
 * field (the filter, Monaco) are left alone.
 */
import { useEffect } from 'react';
import { FILTER_INPUT_ID } from '../filter/FilterBar.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { heldPosition, rowAt, useWindow } from '../store/window-store.js';

const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('.monaco-editor') !== null);

/** The id `step` rows away from the selection within the view (first/last row when none). */
export function moveSelection(ids: readonly string[], position: number, step: number): string | undefined {
  if (ids.length === 0) return undefined;
  if (position < 0) return step > 0 ? ids[0] : ids[ids.length - 1];
  return ids[Math.min(ids.length - 1, Math.max(0, position + step))];
}

export function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (typingIn(e.target)) return;
      const ui = useUi.getState();
      const { view } = useLive.getState();
      switch (e.key) {
        case '/': {
          e.preventDefault();
          document.getElementById(FILTER_INPUT_ID)?.focus();
          return;
        }
        case 'ArrowDown':
        case 'j':
        case 'ArrowUp':
        case 'k': {
          if (ui.mode !== 'exchanges') return;
          e.preventDefault();
          const step = e.key === 'ArrowDown' || e.key === 'j' ? 1 : -1;
          const win = useWindow.getState();
          if (win.windowed) {
            // The window holds the rows on screen and a margin: the next row is among them.
            const at = ui.selected ? heldPosition(win, ui.selected) : -1;
            const to = at < 0 ? (step > 0 ? win.offset : win.offset + win.rows.length - 1) : Math.min(win.total - 1, Math.max(0, at + step));
            const next = rowAt(win, to);
            if (next) {
              if (ui.follow && to !== win.total - 1) ui.setFollow(false);
              ui.select(next.id);
            }
            return;
          }
          const next = moveSelection(view.ids, ui.selected ? view.indexOf(ui.selected) : -1, step);
          if (next) {
            if (ui.follow && next !== view.ids[view.ids.length - 1]) ui.setFollow(false);
            ui.select(next);
          }
          return;
        }
        case 'Enter':
          if (ui.selected) ui.select(ui.selected, true);
          return;
        case 'Escape':
          if (ui.detailOpen) ui.closeDetail();
          else ui.select(undefined);
          return;
        case 'End':
          ui.setFollow(true);
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
