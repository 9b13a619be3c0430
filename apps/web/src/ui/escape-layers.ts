/**
 * Esc closes the topmost open layer, one per press: the layer opened last (a panel over the
 * detail pane, a popover over a panel) closes first, and only when no layer is open does the
 * dashboard's own Esc run (it closes the view's detail). One capture-phase listener decides, so
 * no Esc reaches two layers; Monaco keeps Esc while one of its widgets (completions, find,
 * hover) is open.
 */
import { useEffect, useRef } from 'react';

const MONACO_WIDGET_OPEN = '.monaco-editor .suggest-widget.visible, .monaco-editor .find-widget.visible, .monaco-editor .monaco-hover:not(.hidden)';

interface Layer {
  close(): void;
}

/** Open layers, oldest first. */
const layers: Layer[] = [];

function onEscape(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.ctrlKey || e.metaKey || e.altKey) return;
  const top = layers[layers.length - 1];
  if (!top || document.querySelector(MONACO_WIDGET_OPEN)) return;
  e.stopPropagation();
  e.preventDefault();
  top.close();
}

/** While `open`, Esc closes this layer (unless one opened after it is still open). */
export function useEscapeLayer(open: boolean, close: () => void): void {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const layer: Layer = { close: () => latest.current() };
    if (layers.length === 0) window.addEventListener('keydown', onEscape, true);
    layers.push(layer);
    return () => {
      layers.splice(layers.indexOf(layer), 1);
      if (layers.length === 0) window.removeEventListener('keydown', onEscape, true);
    };
  }, [open]);
}
