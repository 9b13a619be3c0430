/**
 * How many exchanges the capture holds, for the counts beside a list. A capture held whole counts
 * the exchanges it holds; a windowed one holds only a window and the newest rows, so its count is
 * the server's (`captureTotal`, kept current by the window's reads).
 */
import { useLive } from './live-store.js';
import { useWindow, type WindowState } from './window-store.js';

export function exchangeTotal(window: Pick<WindowState, 'windowed' | 'captureTotal'>, held: number): number {
  return window.windowed ? window.captureTotal : held;
}

export function useExchangeTotal(): number {
  const windowed = useWindow((s) => s.windowed);
  const captureTotal = useWindow((s) => s.captureTotal);
  const held = useLive((s) => s.index.size);
  return exchangeTotal({ windowed, captureTotal }, held);
}
