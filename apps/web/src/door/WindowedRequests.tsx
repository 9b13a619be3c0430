/**
 * The table of every request for a door with more records than the browser holds: the rows are
 * the server's window over the filtered list (store/list-window.ts), asked for as the screen
 * moves, and a record opened from elsewhere (an exchange's HTTP layer) is located in the list and
 * scrolled to.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DoorRecord } from '@mcpscope/protocol';
import { useStore } from 'zustand';
import { doorReads, useDoor, type DoorReads } from '../store/door-store.js';
import { heldRow, noWindow } from '../store/list-window.js';
import { RequestTable } from './RequestTable.js';

export function WindowedRequests({ reads, filter }: { reads: DoorReads; filter: string }) {
  const state = useStore(reads.window.store);
  const opened = useDoor((s) => s.record);
  const [reveal, setReveal] = useState<{ position: number }>();
  useEffect(() => reads.window.setQuery(filter), [reads, filter]);
  const onRange = useCallback((first: number, last: number, follow: boolean) => reads.window.want(first, last, follow), [reads]);
  useEffect(() => {
    if (opened === undefined || reads.window.store.getState().rows.some((r) => r.id === opened)) return;
    let current = true;
    void reads.window.locate(opened).then((position) => {
      if (current && position >= 0) setReveal({ position });
    });
    return () => void (current = false);
  }, [reads, opened]);
  const rowAt = useCallback((position: number) => heldRow(state, position), [state]);
  return <RequestTable count={state.total} rowAt={rowAt} onRange={onRange} {...(reveal ? { reveal } : {})} />;
}

/** The record open in the detail pane: held, in the table's window, or read by id. */
export function useOpenedRecord(records: ReadonlyMap<number, DoorRecord>): DoorRecord | undefined {
  const opened = useDoor((s) => s.record);
  const fetched = useDoor((s) => s.fetched);
  const reads = doorReads();
  const rows = useStore(reads?.window.store ?? noWindow, (s) => s.rows);
  const held = opened === undefined ? undefined : (records.get(opened) ?? rows.find((r) => r.id === opened) ?? (fetched?.id === opened ? fetched : undefined));
  useEffect(() => {
    if (opened === undefined || held || !reads) return;
    void reads.record(opened).then(
      (record) => useDoor.getState().record === opened && useDoor.setState({ fetched: record }),
      () => {},
    );
  }, [opened, held, reads]);
  return held;
}
