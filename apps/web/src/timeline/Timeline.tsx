/**
 * The timeline: one row per exchange. TanStack Table owns the columns; TanStack Virtual decides
 * which rows exist in the DOM (fixed row height), so 100,000 rows cost what 40 do.
 */
import { useMemo, useRef } from 'react';
import { useTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLive } from '../store/live-store.js';
import { columns, features } from './columns.js';

const ROW_HEIGHT = 28;

export function Timeline() {
  const index = useLive((s) => s.exchanges);
  const selectedId = useLive((s) => s.selectedId);
  const select = useLive((s) => s.select);
  const data = useMemo(() => index.ids.map((id) => index.byId.get(id)!), [index]);
  const table = useTable({ features, columns, data, getRowId: (row) => row.id });
  const rows = table.getRowModel().rows;
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });

  return (
    <div className="timeline" ref={scroller} role="grid" aria-rowcount={rows.length}>
      <div className="timeline-head" role="row">
        {table.getHeaderGroups()[0]!.headers.map((header) => (
          <div key={header.id} role="columnheader" className={`cell col-${header.column.id}`}>
            <table.FlexRender header={header} />
          </div>
        ))}
      </div>
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div
              key={row.id}
              role="row"
              data-testid="exchange-row"
              data-method={row.original.method ?? ''}
              data-status={row.original.status}
              aria-selected={row.id === selectedId}
              className={`row${row.id === selectedId ? ' selected' : ''}`}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              onClick={() => select(row.id)}
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
  );
}
