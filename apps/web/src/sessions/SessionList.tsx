/**
 * The sessions under a conversation in the sidebar (or under "Sessions in no conversation"): each
 * item as it is while there are at most SESSIONS_LISTED_WHOLE; past it, a host's churn (tens of
 * thousands of sessions in one conversation), the list scrolls in a box of its own and draws only
 * the items on screen, at a fixed height each (use-fixed-rows.ts), so its cost is a screenful's.
 * The chosen session is scrolled into view wherever it is in the list.
 *
 * A capture whose sessions are read by windows (store/session-windows.ts) lists them with
 * WindowedSessionList: the same box, its items those of the server's window over the list, an
 * item not held yet drawn empty until its window arrives, the chosen session located by the server.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { SessionSummary } from '@mcpscope/protocol';
import { heldRow, noWindow, type ListWindow } from '../store/list-window.js';
import { sessionWindows, type SessionListQuery } from '../store/session-windows.js';
import { useSessionFact } from '../store/use-session.js';
import { useFixedRows } from '../ui/use-fixed-rows.js';
import { SessionItem } from './SessionItem.js';

/** Sessions listed item by item; more scroll in their own box. */
export const SESSIONS_LISTED_WHOLE = 300;
/** Height of one item in the scrolled box (an item's lines past it are cut). */
const ITEM_HEIGHT = 96;
/** Height of the scrolled box: about five items. */
const BOX_HEIGHT = 480;

const keepFollow = () => {};

export function SessionList({ sessions, chosen }: { sessions: readonly SessionSummary[]; chosen: string | undefined }) {
  if (sessions.length <= SESSIONS_LISTED_WHOLE) {
    return (
      <ul className="conv-sessions">
        {sessions.map((s) => (
          <SessionItem key={s.sessionKey} s={s} active={s.sessionKey === chosen} />
        ))}
      </ul>
    );
  }
  return <ScrolledSessions sessions={sessions} chosen={chosen} />;
}

function ScrolledSessions({ sessions, chosen }: { sessions: readonly SessionSummary[]; chosen: string | undefined }) {
  const scroller = useRef<HTMLDivElement>(null);
  const { first, last, totalHeight, top, onScroll, reveal } = useFixedRows(scroller, sessions.length, ITEM_HEIGHT, 0, false, keepFollow);
  // A session chosen elsewhere (a link, the filter's scope) is scrolled into view; a click on one
  // already in view does not move the box.
  const sessionsRef = useRef(sessions);
  sessionsRef.current = sessions;
  useEffect(() => {
    if (chosen === undefined) return;
    const at = sessionsRef.current.findIndex((s) => s.sessionKey === chosen);
    if (at >= 0) reveal(at);
  }, [chosen, reveal]);
  const shown: number[] = [];
  for (let i = first; i <= last; i++) shown.push(i);
  return (
    <div className="conv-sessions session-scroller" ref={scroller} onScroll={onScroll} style={{ height: BOX_HEIGHT }} data-testid="session-scroller" data-count={sessions.length}>
      <ul style={{ height: totalHeight }}>
        {shown.map((i) => {
          const s = sessions[i]!;
          return <SessionItem key={s.sessionKey} s={s} active={s.sessionKey === chosen} place={{ top: top(i), height: ITEM_HEIGHT, position: i + 1 }} />;
        })}
      </ul>
    </div>
  );
}

/**
 * The list `list` names, read by windows: `count` (what the caller knows of its length) until the
 * first window says. `frame` wraps the box (a heading above it); an empty list draws nothing.
 */
export function WindowedSessionList({ list, count, chosen, frame = (box) => box }: { list: SessionListQuery; count: number; chosen: string | undefined; frame?: (box: ReactNode) => ReactNode }) {
  const [listWindow, setListWindow] = useState<ListWindow<SessionSummary, string>>();
  const { conversation, oldestFirst } = list;
  useEffect(() => {
    const windows = sessionWindows();
    if (!windows) return;
    const query = { ...(conversation !== undefined ? { conversation } : {}), ...(oldestFirst ? { oldestFirst } : {}) };
    setListWindow(windows.acquire(query));
    return () => windows.release(query);
  }, [conversation, oldestFirst]);
  const state = useStore(listWindow?.store ?? noWindow);
  const total = state.loaded ? state.total : count;
  const scroller = useRef<HTMLDivElement>(null);
  const { first, last, totalHeight, top, onScroll, reveal } = useFixedRows(scroller, total, ITEM_HEIGHT, 0, false, keepFollow);
  useEffect(() => listWindow?.want(first, Math.max(first, last), false), [listWindow, first, last]);
  // The chosen session, wherever it is in the list: the server says where, the box scrolls there.
  // Only a list that holds it looks (its conversation is known once the session is held).
  const chosenConversation = useSessionFact(chosen, (s) => s.conversationKey ?? '');
  const mine = chosen !== undefined && (conversation === undefined || chosenConversation === conversation);
  useEffect(() => {
    if (chosen === undefined || !mine || !listWindow) return;
    const held = listWindow.store.getState();
    const at = held.rows.findIndex((s) => s.sessionKey === chosen);
    if (at >= 0) reveal(held.offset + at);
    else void listWindow.locate(chosen).then((position) => position >= 0 && reveal(position));
  }, [chosen, mine, listWindow, reveal]);
  if (total === 0) return null;
  const shown: number[] = [];
  for (let i = first; i <= last; i++) shown.push(i);
  return frame(
    <div className="conv-sessions session-scroller" ref={scroller} onScroll={onScroll} style={{ height: Math.min(BOX_HEIGHT, total * ITEM_HEIGHT) }} data-testid="session-scroller" data-count={total}>
      <ul style={{ height: totalHeight }}>
        {shown.map((i) => {
          const s = heldRow(state, i);
          const place = { top: top(i), height: ITEM_HEIGHT, position: i + 1 };
          return s ? (
            <SessionItem key={s.sessionKey} s={s} active={s.sessionKey === chosen} place={place} />
          ) : (
            <li key={`at-${i}`} className="placed muted" style={{ top: place.top, height: place.height }} aria-posinset={place.position} aria-busy="true" />
          );
        })}
      </ul>
    </div>,
  );
}
