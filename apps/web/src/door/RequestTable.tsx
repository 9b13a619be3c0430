/**
 * Every HTTP request at the door that the filter keeps, oldest at the top, like a network panel:
 * time, method, path, status, what it is (probe, metadata, token endpoint …), client, duration,
 * size. Rows are drawn by position (fixed height), so thousands cost what a screenful does; the
 * rows come from the records held or, for a windowed door, from the server's window
 * (WindowedRequests.tsx), and a position not held yet is drawn empty until its window arrives.
 */
import { useEffect, useRef, useState } from 'react';
import type { DoorRecord } from '@mcpscope/protocol';
import { useFixedRows } from '../ui/use-fixed-rows.js';
import { useDoor } from '../store/door-store.js';
import { bytes, clockTime, ms, recordKind } from './door-looks.js';

const ROW_HEIGHT = 24;
const HEADER_HEIGHT = 26;

function statusTone(r: DoorRecord): string {
  if (r.status === undefined) return 'tone-warn';
  if (r.status >= 500 || r.answer === 'refused' || r.answer === 'upstream-failed') return 'tone-error';
  if (r.status >= 400) return 'tone-warn';
  return 'tone-ok';
}

export interface RequestRows {
  count: number;
  rowAt(position: number): DoorRecord | undefined;
  /** Told the positions on screen as they change, and whether the view follows the end. */
  onRange?(first: number, last: number, follow: boolean): void;
  /** A position to scroll into view (a record opened from elsewhere); a new value scrolls again. */
  reveal?: { position: number };
}

export function RequestTable({ count, rowAt, onRange, reveal }: RequestRows) {
  const scroller = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const opened = useDoor((s) => s.record);
  const rows = useFixedRows(scroller, count, ROW_HEIGHT, HEADER_HEIGHT, follow, setFollow);
  const { first, last, totalHeight, onScroll, top } = rows;
  useEffect(() => onRange?.(first, last, follow), [onRange, first, last, follow]);
  useEffect(() => {
    if (!reveal) return;
    setFollow(false);
    rows.reveal(reveal.position);
    // Only a new reveal scrolls (`rows` changes with every scroll, which must not be pulled back).
  }, [reveal]);
  const shown: { position: number; record: DoorRecord | undefined }[] = [];
  for (let position = first; position <= last; position++) shown.push({ position, record: rowAt(position) });
  return (
    <div className="door-table" ref={scroller} role="grid" aria-rowcount={count} aria-label="HTTP requests at the door" onScroll={onScroll} data-testid="door-requests">
      <div className="door-row door-head" role="row">
        <span role="columnheader">#</span>
        <span role="columnheader">Time</span>
        <span role="columnheader">Method</span>
        <span role="columnheader">Path</span>
        <span role="columnheader">Status</span>
        <span role="columnheader">What</span>
        <span role="columnheader">Client</span>
        <span role="columnheader">Took</span>
        <span role="columnheader">Size</span>
      </div>
      <div style={{ height: totalHeight, position: 'relative' }}>
        {shown.map(({ position, record: r }) =>
          !r ? (
            <div key={`at-${position}`} role="row" className="door-row muted" aria-rowindex={position + 1} style={{ transform: `translateY(${top(position)}px)`, height: ROW_HEIGHT }} />
          ) : (
          <div
            key={r.id}
            role="row"
            className={`door-row${opened === r.id ? ' selected' : ''}`}
            style={{ transform: `translateY(${top(position)}px)`, height: ROW_HEIGHT }}
            aria-rowindex={position + 1}
            data-testid="door-request"
            data-id={r.id}
            data-status={r.status ?? 'none'}
            aria-selected={opened === r.id}
            onClick={() => useDoor.getState().openRecord(r.id)}
          >
            <span role="gridcell" className="muted">{r.id}</span>
            <span role="gridcell" className="mono">{clockTime(r.ts)}</span>
            <span role="gridcell" className="mono">{r.method}</span>
            <span role="gridcell" className="mono path" title={r.path}>{r.path}</span>
            <span role="gridcell" className={`mono ${statusTone(r)}`}>{r.status ?? (r.end === 'open' ? '…' : '—')}{r.answer !== 'upstream' ? ` ${r.answer}` : ''}</span>
            <span role="gridcell" className="muted">{recordKind(r)}</span>
            <span role="gridcell" className="muted mono" title={r.userAgent}>{r.userAgent ?? '—'}</span>
            <span role="gridcell" className="mono">{ms(r.endMs)}</span>
            <span role="gridcell" className="mono">{bytes(r.requestBytes + r.responseBytes)}</span>
          </div>
          ),
        )}
      </div>
      {count === 0 && <div className="no-match">No HTTP request matches.</div>}
    </div>
  );
}
