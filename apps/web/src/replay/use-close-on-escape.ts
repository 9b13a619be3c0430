/**
 * Esc closes the replay panel. It listens in the capture phase so the panel closes instead of the
 * detail pane behind it (the dashboard's own Esc closes the detail), but leaves Esc to Monaco
 * while one of its widgets (completions, find, hover) is open.
 */
import { useEffect } from 'react';

const MONACO_WIDGET_OPEN = '.monaco-editor .suggest-widget.visible, .monaco-editor .find-widget.visible, .monaco-editor .monaco-hover:not(.hidden)';

export function useCloseOnEscape(onClose: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.ctrlKey || e.metaKey || e.altKey) return;
      if (document.querySelector(MONACO_WIDGET_OPEN)) return;
      e.stopPropagation();
      onClose();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose]);
}
