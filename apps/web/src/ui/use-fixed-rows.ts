/**
 * Which rows of a fixed-height list are on screen: pure arithmetic on scrollTop, so its cost does
 * not depend on the row count. TanStack Virtual did this job first, but at 100,000 rows growing
 * every animation frame it re-measured every row and forced a synchronous layout per change
 * (bench/dashboard.ts measured frames of 300 ms during 2,000 frames/s ingest); mitmproxy's
 * hand-written VirtualScroll makes the same trade.
 *
 * Follow-tail lives here too: while `follow` is on, each change of `count` pins the view to the
 * end; a scroll that leaves the end reports `false`, reaching it again reports `true`.
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface FixedRows {
  first: number;
  last: number;
  totalHeight: number;
  onScroll(): void;
  /** Scrolls so row `index` is visible (no-op when it already is). */
  reveal(index: number): void;
}

const OVERSCAN = 8;

export function useFixedRows(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  /** Pixels above the first row inside the scroller (a sticky header). */
  headerHeight: number,
  follow: boolean,
  setFollow: (follow: boolean) => void,
): FixedRows {
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const totalHeight = count * rowHeight;
  const geometry = useRef({ count, viewport, follow });
  geometry.current = { count, viewport, follow };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setViewport(el.clientHeight);
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [scroller]);

  // Pin to the end as rows arrive: the scroller's own end, so room a list keeps under its rows
  // (the timeline's, for a mark's label) shows too.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !follow) return;
    const end = Math.max(0, headerHeight + totalHeight - viewport, el.scrollHeight - el.clientHeight);
    if (Math.abs(el.scrollTop - end) > 1) el.scrollTop = end;
    setScrollTop(end);
  }, [scroller, follow, totalHeight, viewport, headerHeight]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop;
    setScrollTop(top);
    const g = geometry.current;
    const atEnd = top + g.viewport >= headerHeight + g.count * rowHeight - rowHeight;
    if (atEnd !== g.follow) setFollow(atEnd);
  }, [scroller, headerHeight, rowHeight, setFollow]);

  const reveal = useCallback(
    (index: number) => {
      const el = scroller.current;
      if (!el) return;
      const top = index * rowHeight;
      const visibleTop = el.scrollTop;
      const visibleBottom = visibleTop + geometry.current.viewport - headerHeight;
      if (top < visibleTop) el.scrollTop = top;
      else if (top + rowHeight > visibleBottom) el.scrollTop = top + rowHeight - (geometry.current.viewport - headerHeight);
    },
    [scroller, rowHeight, headerHeight],
  );

  const first = Math.max(0, Math.floor((scrollTop - headerHeight) / rowHeight) - OVERSCAN);
  const last = Math.min(count - 1, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN);
  return { first, last, totalHeight, onScroll, reveal };
}
