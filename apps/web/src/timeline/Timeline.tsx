/**
 * The timeline: one row per exchange of the filtered view, oldest at the top. TanStack Virtual
 * decides which rows exist in the DOM (fixed row height) and TanStack Table renders the columns
 * of just those rows, so 100,000 exchanges cost what 40 do.
 *
 * Follow-tail: while on, new rows scroll into view; scrolling up turns it off, and the "new rows"
 * button (or End) turns it back on.
 */
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ExchangeSummary } from '@mcpscope/protocol';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { columns, features } from './columns.js';

export const ROW_HEIGHT = 26;

export function Timeline() {
  const tick = useLive((s) => s.tick);
  const view = useLive((s) => s.view);
  const index = useLive((s) => s.index);
  const selected = useUi((s) => s.selected);
  const follow = useUi((s) => s.follow);
  const scroller = useRef<HTMLDivElement>(null);
  const count = view.size;
  const virtual = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtual.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  // `tick` is the change signal of the mutable view and index.
  const data = useMemo<ExchangeSummary[]>(() => view.ids.slice(first, last + 1).map((id) => index.get(id)!), [tick, first, last, view, index]);
  const table = useTable({ features, columns, data, getRowId: (row) => row.id });
  const rows = table.getRowModel().rows;
  const unseen = useRef(0);

  useLayoutEffect(() => {
    if (follow && count > 0) virtual.scrollToIndex(count - 1, { align: 'end' });
  }, [follow, count, virtual]);

  // Bring the selected row into view when the keyboard moves it.
  useEffect(() => {
    if (!selected) return;
    const at = view.indexOf(selected);
    if (at >= 0) virtual.scrollToIndex(at, { align: 'auto' });
  }, [selected, view, virtual]);

  const lastCount = useRef(count);
  if (follow) unseen.current = 0;
  else if (count > lastCount.current) unseen.current += count - lastCount.current;
  lastCount.current = count;

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
    const ui = useUi.getState();
    if (ui.follow !== atBottom) ui.setFollow(atBottom);
  };

  return (
    <div className="timeline-wrap">
      <div className="timeline" ref={scroller} role="grid" aria-rowcount={count} aria-label="Exchanges" onScroll={onScroll} data-testid="timeline">
        <div className="timeline-head" role="row">
          {table.getHeaderGroups()[0]!.headers.map((header) => (
            <div key={header.id} role="columnheader" className={`cell col-${header.column.id}`}>
              <table.FlexRender header={header} />
            </div>
          ))}
        </div>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index - first];
            if (!row) return null;
            const ex = row.original;
            const isSelected = row.id === selected;
            return (
              <div
                key={row.id}
                role="row"
                data-testid="exchange-row"
                data-id={ex.id}
                data-method={ex.method ?? ''}
                data-status={ex.status}
                aria-selected={isSelected}
                className={`row status-row-${ex.status}${isSelected ? ' selected' : ''}${item.index % 2 ? ' odd' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={() => useUi.getState().select(row.id, true)}
              >
                {row.getAllCells().map((cell) => (
                  <div key={cell.id} role="gridcell" className={`cell col-${cell.column.id}`}>
                    <table.FlexRender cell={cell} />
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
      {!follow && (
        <button type="button" className="follow-button" data-testid="follow" onClick={() => useUi.getState().setFollow(true)}>
          ↓ {unseen.current > 0 ? `${unseen.current} new — ` : ''}follow new rows
        </button>
      )}
    </div>
  );
}
