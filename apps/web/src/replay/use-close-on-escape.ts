/**
 * Esc closes the panel that calls this (the replay and compare panels): a layer over the detail
 * pane, so the panel closes, not the detail behind it (ui/escape-layers.ts).
 */
import { useEscapeLayer } from '../ui/escape-layers.js';

export function useCloseOnEscape(onClose: () => void): void {
  useEscapeLayer(true, onClose);
}
