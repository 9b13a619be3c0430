/**
 * Which rows of a fixed-height list are on screen: pure arithmetic on scrollTop, so its cost does
 * not depend on the row count. TanStack Virtual did this job first, but at 100,000 rows growing
 * every animation frame it re-measured every row and forced a synchronous layout per change
 * (bench/dashboard.ts measured frames of 300 ms during 2,000 frames/s ingest); mitmproxy's
 * hand-written VirtualScroll makes the same trade.
 *
 * Follow-tail lives here too: while `follow` is on, each change of `count` pins the view to the
 * end; a scroll that leaves the end reports `false`, reaching it again reports `true`. While
 * following, the rows drawn are the end's, worked out in the render that grows the list: the
 * scroller is moved after it and its scroll changes nothing drawn, so a live row costs one render
 * and one layout, not two of each.
 *
 * A list taller than MAX_SCROLL_HEIGHT is scaled: browsers clamp an element's height (Chromium at
 * 33,554,432 px, 1.29 million rows of 26 px), so the scroller's content stops at
 * MAX_SCROLL_HEIGHT and its scroll range maps linearly onto the list's. Rows are then drawn at
 * `top(index)`, which subtracts the difference between the list's offset and the scroller's; the
 * first and the last row stay reachable at any count.
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Tallest content the scroller gets; past it the scroll range is scaled (well under every browser's clamp). */
export const MAX_SCROLL_HEIGHT = 8_000_000;

export interface FixedRows {
  first: number;
  last: number;
  /** Height of the scroller's content (the list's, or MAX_SCROLL_HEIGHT when scaled). */
  totalHeight: number;
  /** Where row `index` is drawn, in the content's pixels. */
  top(index: number): number;
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
  const listHeight = count * rowHeight;
  const totalHeight = Math.min(listHeight, MAX_SCROLL_HEIGHT);
  // Content pixels per list pixel over the scroll range (1 unless the list is scaled).
  const range = Math.max(1, viewport - headerHeight);
  const ratio = listHeight > totalHeight ? Math.max(0, listHeight - range) / Math.max(1, totalHeight - range) : 1;
  const geometry = useRef({ count, viewport, follow, ratio });
  geometry.current = { count, viewport, follow, ratio };

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
  }, [scroller, follow, totalHeight, viewport, headerHeight]);

  // Following stopped without a scroll (the keyboard moved the selection): the rows drawn are
  // where the scroller is from now on.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && !follow) setScrollTop(el.scrollTop);
  }, [scroller, follow]);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop;
    const g = geometry.current;
    const atEnd = top + g.viewport >= headerHeight + Math.min(g.count * rowHeight, MAX_SCROLL_HEIGHT) - rowHeight;
    if (atEnd !== g.follow) setFollow(atEnd);
    // A scroll that stays at the end while following changes nothing drawn (see the header).
    if (!(g.follow && atEnd)) setScrollTop(top);
  }, [scroller, headerHeight, rowHeight, setFollow]);

  const reveal = useCallback(
    (index: number) => {
      const el = scroller.current;
      if (!el) return;
      // In list pixels: the scroller's position times the ratio is where the list is scrolled to.
      const { ratio: r, viewport: vp } = geometry.current;
      const top = index * rowHeight;
      const visibleTop = el.scrollTop * r;
      const visibleBottom = visibleTop + vp - headerHeight;
      if (top < visibleTop) el.scrollTop = top / r;
      else if (top + rowHeight > visibleBottom) el.scrollTop = (top + rowHeight - (vp - headerHeight)) / r;
    },
    [scroller, rowHeight, headerHeight],
  );

  // Following: the end (without the room under the rows, which only moves the screen further down).
  const viewTop = follow ? Math.max(0, headerHeight + totalHeight - viewport) : scrollTop;
  const listTop = ratio === 1 ? viewTop : Math.min(viewTop * ratio, Math.max(0, listHeight - range));
  const first = Math.max(0, Math.floor((listTop - headerHeight) / rowHeight) - OVERSCAN);
  const last = Math.min(count - 1, Math.ceil((listTop + viewport) / rowHeight) + OVERSCAN);
  const shift = listTop - viewTop;
  const top = useCallback((index: number) => index * rowHeight - shift, [rowHeight, shift]);
  return { first, last, totalHeight, top, onScroll, reveal };
}
