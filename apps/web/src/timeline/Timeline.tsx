/**
 * The timeline: one row per exchange of the filtered view, oldest at the top. use-fixed-rows
 * decides which rows exist in the DOM (fixed row height) and TanStack Table renders the columns
 * of just those rows, so 100,000 exchanges cost what 40 do.
 *
 * Follow-tail: while on, new rows scroll into view; scrolling up turns it off, and the "N new"
 * button (shown once the view holds rows captured since) or End turns it back on.
 *
 * Rows come from the live store's view while the capture is held whole, and from the window the
 * server sends (store/window-store.ts) once it is too large to hold: then only the rows on
 * screen and a margin are in the browser, and a row far away is fetched when it is selected.
 */
import { useReadOnly } from '../store/read-only.js';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { useTable } from '@tanstack/react-table';
import type { ExchangeSummary } from '@mcpscope/protocol';
import { useLive } from '../store/live-store.js';
import { heldPosition, rowAt, useWindow, windowFetcher } from '../store/window-store.js';
import { lowerBound, orderKey } from '../store/exchange-index.js';
import { useUi } from '../store/ui-store.js';
import { columns, features } from './columns.js';
import { useFixedRows } from '../ui/use-fixed-rows.js';
import { layoutColumns } from './column-layout.js';
import { useColumnPrefs } from './column-prefs.js';
import { ColumnHeader } from './ColumnHeader.js';
import { useSearch } from '../filter/server-search.js';
import { chosenConversation, startsSession } from '../ui/conversation-facts.js';
import { useCompare } from '../compare/index.js';
import { MARK_ROOM, TimelineMarks } from '../capture/TimelineMarks.js';
import { WaterfallScaleContext } from './WaterfallCell.js';
import { waterfallScale } from './waterfall.js';
import { nextBaseline, type NewRowsBaseline } from './new-rows.js';

export const ROW_HEIGHT = 26;
const HEADER_HEIGHT = 26;
const setFollow = (follow: boolean) => useUi.getState().setFollow(follow);

/** The element's inner width, followed as it changes (window resized, detail pane opened). */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(1200);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Less than the gap between two order keys (batch items are 1/10,000 apart): "just after" a key. */
const HALF_BATCH_STEP = 1 / 20_000;

/** The order key of the newest exchange held (0 when none). */
function newestKey(ids: readonly string[]): number {
  const last = ids[ids.length - 1];
  return last === undefined ? 0 : orderKey(last);
}

/** The full text of a cell whose value is text, for the tooltip of a cut cell. */
function tooltipOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function Timeline() {
  const win = useWindow();
  const windowed = win.windowed;
  // The change signal of the mutable view and index, which a windowed list does not draw from: its
  // rows move with the window alone, so live batches do not render it twice.
  const tick = useLive((s) => (windowed ? -1 : s.tick));
  const view = useLive((s) => s.view);
  const index = useLive((s) => s.index);
  const selected = useUi((s) => s.selected);
  const picked = useCompare((s) => s.picked);
  const cleared = useUi((s) => s.since !== undefined);
  const filtering = useUi((s) => s.filter.trim() !== '' || s.session !== undefined);
  const follow = useUi((s) => s.follow);
  // A file gets no new rows: nothing to follow.
  const readOnly = useReadOnly((s) => s.file !== undefined);
  // A conversation's timeline marks where each of its sessions begins.
  const inConversation = useUi((s) => chosenConversation(s.filter) !== undefined);
  const searching = useSearch((s) => s.status === 'searching');
  const scroller = useRef<HTMLDivElement>(null);
  const count = windowed ? win.total : view.size;
  const { first, last, totalHeight, top, onScroll, reveal } = useFixedRows(scroller, count, ROW_HEIGHT, HEADER_HEIGHT, follow, setFollow);
  useEffect(() => {
    if (windowed) windowFetcher()?.want(first, last, follow);
  }, [windowed, first, last, follow, win.key, win.total]);
  // The rows on screen that are held, with their positions. `tick` is the change signal of the
  // mutable view and index.
  const shownRows = useMemo(() => {
    const out: { at: number; ex: ExchangeSummary }[] = [];
    for (let at = first; at <= last; at++) {
      const ex = windowed ? rowAt(win, at) : index.get(view.ids[at]!);
      if (ex) out.push({ at, ex });
    }
    return out;
  }, [tick, first, last, view, index, windowed, win]);
  const data = useMemo(() => shownRows.map((r) => r.ex), [shownRows]);
  const table = useTable({ features, columns, data, getRowId: (row) => row.id });
  // One time scale for the rendered rows, so bars that ran at once line up side by side.
  const scale = useMemo(() => waterfallScale(data), [data]);
  const width = useWidth(scroller);
  const chosen = useColumnPrefs((s) => s.chosen);
  const widths = useColumnPrefs((s) => s.widths);
  const layout = useMemo(() => layoutColumns(width, chosen, widths), [width, chosen, widths]);
  const shown = useMemo(() => new Set<string>(layout.shown), [layout]);
  const gridStyle = { '--cols': layout.template, '--cols-min': `${layout.minWidth}px` } as CSSProperties;
  const rows = table.getRowModel().rows;

  // Bring the selected row into view when the keyboard moves it (or a link selects a row far
  // outside the window: the server says where it is).
  const wasWindowed = useRef(windowed);
  useEffect(() => {
    // A capture that outgrew the browser just now: its rows kept their positions (the window is
    // the list the view held), so the selection is where it was and the screen stays put.
    const outgrown = windowed && !wasWindowed.current;
    wasWindowed.current = windowed;
    if (!selected) return;
    if (!windowed) {
      const at = view.indexOf(selected);
      if (at >= 0) reveal(at);
      return;
    }
    const held = heldPosition(useWindow.getState(), selected);
    if (held >= 0) {
      if (!outgrown) reveal(held);
    } else void windowFetcher()?.locate(selected).then((at) => at >= 0 && reveal(at));
    // Another list (a filter typed or cleared): the selection is looked for in it.
  }, [selected, view, reveal, windowed, win.key]);

  // New means in the view now and captured after the newest row held when following stopped: a
  // cleared filter brings older rows back, and rows the filter hides are not in the view. A
  // windowed list counts what the list grew by since then.
  const newestWhenLeft = useRef(0);
  const totalWhenLeft = useRef<NewRowsBaseline>({ key: '', windowed: false, total: 0 });
  if (follow) newestWhenLeft.current = newestKey(index.ids);
  const heldSince = () => view.size - lowerBound(view.ids, newestWhenLeft.current + HALF_BATCH_STEP);
  totalWhenLeft.current = nextBaseline(totalWhenLeft.current, { key: win.key, windowed, total: win.total }, follow, heldSince);
  const unseen = follow ? 0 : windowed ? Math.max(0, win.total - totalWhenLeft.current.total) : heldSince();
  const anyRows = windowed ? win.captureTotal > 0 : index.size > 0;
  const searchingHere = searching || (windowed && !win.complete);

  return (
    <div className="timeline-wrap">
      <div className="timeline exchange-grid" ref={scroller} role="grid" aria-rowcount={count} aria-label="Exchanges" onScroll={onScroll} data-testid="timeline" data-columns={layout.shown.join(' ')} style={gridStyle}>
        <ColumnHeader layout={layout} />
        <WaterfallScaleContext.Provider value={scale}>
          <div style={{ height: totalHeight + MARK_ROOM, position: 'relative' }}>
            {rows.map((row, i) => {
              const at = shownRows[i]!.at;
              const ex = row.original;
              const isSelected = row.id === selected;
              const isPicked = picked.includes(row.id);
              const sessionBreak = inConversation && (windowed ? at > 0 && rowAt(win, at - 1)?.sessionKey !== ex.sessionKey : startsSession(view.ids, at, (id) => index.get(id)?.sessionKey));
              return (
                <div
                  key={row.id}
                  role="row"
                  aria-rowindex={at + 1}
                  data-testid="exchange-row"
                  data-id={ex.id}
                  data-method={ex.method ?? ''}
                  data-session={ex.sessionKey}
                  data-status={ex.status}
                  aria-selected={isSelected}
                  data-session-break={sessionBreak || undefined}
                  data-picked={isPicked || undefined}
                  className={`row status-row-${ex.status}${isSelected ? ' selected' : ''}${isPicked ? ' picked' : ''}${at % 2 ? ' odd' : ''}${sessionBreak ? ' session-break' : ''}`}
                  style={{ transform: `translateY(${top(at)}px)`, height: ROW_HEIGHT }}
                  title={isPicked ? 'Picked to compare (ctrl/⌘-click to unpick)' : undefined}
                  // Ctrl/⌘-click picks the row for "Compare" instead of opening it.
                  onClick={(e) => (e.ctrlKey || e.metaKey ? useCompare.getState().toggle(row.id) : useUi.getState().select(row.id, true))}
                >
                  {row.getAllCells().filter((cell) => shown.has(cell.column.id)).map((cell) => (
                    <div key={cell.id} role="gridcell" className={`cell col-${cell.column.id}`} title={tooltipOf(cell.getValue())}>
                      <table.FlexRender cell={cell} />
                    </div>
                  ))}
                </div>
              );
            })}
            <TimelineMarks first={first} last={last} ids={windowed ? win.rows.map((r) => r.id) : view.ids} base={windowed ? win.offset : 0} size={count} top={top} />
          </div>
        </WaterfallScaleContext.Provider>
      </div>
      {count === 0 && anyRows && !searchingHere && cleared && !filtering && (
        <div className="no-match" data-testid="no-match-cleared">
          View cleared: new exchanges appear here (the earlier ones are still in the capture).{' '}
          <button type="button" className="link" onClick={() => useUi.getState().setSince(undefined)}>
            Show all
          </button>
        </div>
      )}
      {count === 0 && anyRows && !(cleared && !filtering) && (
        <div className="no-match" data-testid="no-match">
          {searchingHere ? 'Searching the capture…' : 'No exchange matches this filter.'}{' '}
          <button type="button" className="link" onClick={() => (useUi.getState().setFilter(''), useUi.getState().setSession(undefined), useUi.getState().setSince(undefined))}>
            Show everything
          </button>
        </div>
      )}
      {unseen > 0 && !readOnly && (
        <button type="button" className="follow-button" data-testid="follow" onClick={() => useUi.getState().setFollow(true)}>
          ↓ {unseen} new — follow new rows
        </button>
      )}
    </div>
  );
}
