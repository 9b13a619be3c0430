import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionSummary, SessionsWindowPage } from '@mcpscope/protocol';
import { createLiveStore } from './live-store.js';
import { startLiveSync, type SyncApi } from './live-sync.js';
import { SESSIONS_HELD, SESSIONS_WHOLE, SessionWindows, useSessionsWindow, type SessionListQuery, type SessionWindowRead } from './session-windows.js';
import { startSessionWindowMode } from './session-window-mode.js';
import { useWindow, WindowFetcher } from './window-store.js';
import { startWindowMode } from './window-mode.js';

/** Session `n`, started at `n` ms; every tenth in conversation `c-even`/`c-odd`, the rest in none. */
const session = (n: number): SessionSummary => ({
  sessionKey: `s-${String(n).padStart(6, '0')}`,
  transport: 'http-json',
  firstTs: n,
  lastTs: n,
  counts: { ok: 1 },
  ...(n % 10 === 0 ? { conversationKey: n % 20 === 0 ? 'c-even' : 'c-odd' } : {}),
});

/** The proxy's `GET /api/sessions/window` over `all` (as apps/proxy/test/paged-lists.test.ts pins it), noting each read. */
function sessionServer(all: SessionSummary[]) {
  const reads: { list: SessionListQuery; limit: number }[] = [];
  const listOf = (list: SessionListQuery) => {
    const kept = all.filter((s) => list.conversation === undefined || (s.conversationKey ?? '') === list.conversation);
    return kept.sort((a, b) => (list.oldestFirst ? a.firstTs - b.firstTs : b.firstTs - a.firstTs));
  };
  const read: SessionWindowRead = async (list, at, limit) => {
    reads.push({ list, limit });
    const rows = listOf(list);
    const position = 'around' in at ? rows.findIndex((s) => s.sessionKey === at.around) : undefined;
    const offset = position !== undefined ? Math.max(0, position - Math.floor(limit / 2)) : (at as { offset: number }).offset;
    const page: SessionsWindowPage = { offset: Math.min(offset, rows.length), sessions: rows.slice(offset, offset + limit), total: rows.length };
    if (position !== undefined) page.position = position;
    return page;
  };
  return { read, reads };
}

const sessions = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => session(from + i));
const tick = () => new Promise((r) => setTimeout(r, 0));
const until = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await tick();
  expect(done()).toBe(true);
};

const initialWindow = useWindow.getState();
beforeEach(() => {
  useWindow.setState(initialWindow, true);
  useSessionsWindow.setState({ windowed: false, total: 0 }, true);
});

/** A sync API over `all` sessions, with no exchanges; `every` counts reads of every session at once. */
function syncApi(all: SessionSummary[]) {
  const server = sessionServer(all);
  const counted = { every: 0 };
  const api: SyncApi = {
    exchanges: async () => ({ head: 1, exchanges: [], retention: { removedFrames: 0, oldestSeq: 0 } }),
    sessions: async () => (counted.every++, { sessions: all }),
    sessionWindow: server.read,
    exchangeWindow: async () => ({ offset: 0, exchanges: [], total: 0, complete: true, head: 1 }),
    socketUrl: () => 'ws://x',
  };
  return { api, counted, reads: server.reads };
}

const noSocket = () => ({ onopen: null, onmessage: null, onclose: null, close() {} });

describe('a capture with tens of thousands of sessions', () => {
  it('opens with the newest sessions and their count, never every session, and reads its exchanges by windows', async () => {
    const { api, counted } = syncApi(sessions(0, 20_000));
    const store = createLiveStore((run) => run());
    const stop = startLiveSync(api, store, { openSocket: noSocket });
    await until(() => store.getState().loaded);
    expect(counted.every).toBe(0);
    expect(store.getState().sessions.size).toBe(SESSIONS_HELD);
    expect(store.getState().sessions.has('s-019999')).toBe(true);
    expect(useSessionsWindow.getState()).toMatchObject({ windowed: true, total: 20_000 });
    // Filters on a session's facts run where every session is.
    expect(useWindow.getState().windowed).toBe(true);
    stop();
  });

  it('holds every session up to SESSIONS_WHOLE, with one read when the newest window holds them all', async () => {
    const few = syncApi(sessions(0, 300));
    const store = createLiveStore((run) => run());
    startLiveSync(few.api, store, { openSocket: noSocket })();
    await until(() => store.getState().loaded);
    expect([store.getState().sessions.size, few.counted.every, useSessionsWindow.getState().windowed]).toEqual([300, 0, false]);

    const some = syncApi(sessions(0, SESSIONS_WHOLE));
    const other = createLiveStore((run) => run());
    startLiveSync(some.api, other, { openSocket: noSocket })();
    await until(() => other.getState().loaded);
    expect([other.getState().sessions.size, some.counted.every, useSessionsWindow.getState().windowed, useWindow.getState().windowed]).toEqual([SESSIONS_WHOLE, 1, false, false]);
  });

  it("a conversation's list is read by position, oldest first; a new session moves its count, not the whole list", async () => {
    const all = sessions(0, 20_000);
    const server = sessionServer(all);
    const windows = new SessionWindows(server.read, () => {});
    const list = windows.acquire({ conversation: 'c-even', oldestFirst: true });
    list.want(500, 505, false);
    await until(() => list.store.getState().loaded);
    const state = list.store.getState();
    expect(state.total).toBe(1000);
    expect(state.offset).toBeLessThanOrEqual(500);
    expect(state.rows[500 - state.offset]!.sessionKey).toBe(session(500 * 20).sessionKey);
    expect(Math.max(...server.reads.map((r) => r.limit))).toBeLessThan(300);

    all.push(session(20_000), session(20_001));
    windows.refresh();
    await until(() => list.store.getState().total === 1001 && useSessionsWindow.getState().total === 20_002);
    // The window stayed where the screen is.
    expect(list.store.getState().rows[500 - list.store.getState().offset]!.sessionKey).toBe(session(500 * 20).sessionKey);
    // A session far from the top is found by the server, in this list's order.
    expect(await list.locate(session(7_000).sessionKey)).toBe(350);
    windows.release({ conversation: 'c-even', oldestFirst: true });
  });

  it('a session far from the newest is read by key and held while chosen; the store stays bounded as sessions churn', async () => {
    const all = sessions(0, 20_000);
    const server = sessionServer(all);
    const store = createLiveStore((run) => run());
    const windows = new SessionWindows(server.read, (held) => store.queueDelta({ sessions: held }));
    let chosen: string[] = [];
    store.queueDelta({ head: 1, sessions: all.slice(-SESSIONS_HELD) });
    useSessionsWindow.setState({ windowed: true, total: all.length });
    const stop = startSessionWindowMode(store, () => chosen);
    chosen = [session(12_345).sessionKey];
    windows.fetch(chosen[0]!);
    windows.fetch(session(3).sessionKey);
    await until(() => store.getState().sessions.has(chosen[0]!) && store.getState().sessions.has(session(3).sessionKey));
    // Churn: twice the held sessions arrive live.
    for (let n = 20_000; n < 20_000 + 2 * SESSIONS_HELD; n += 100) store.queueDelta({ sessions: sessions(n, n + 100) });
    const held = store.getState().sessions;
    expect(held.size).toBeLessThanOrEqual(2 * SESSIONS_HELD + 1);
    expect(held.has(chosen[0]!)).toBe(true);
    expect(held.has(session(3).sessionKey)).toBe(false);
    expect(held.has(session(20_000 + 2 * SESSIONS_HELD - 1).sessionKey)).toBe(true);
    stop();
  });

  it('a capture held whole whose sessions grow past SESSIONS_WHOLE becomes windowed in place, its exchanges too', () => {
    const store = createLiveStore((run) => run());
    const fetcher = new WindowFetcher({ exchangeWindow: () => new Promise(() => {}) });
    const stopSessions = startSessionWindowMode(store, () => []);
    const stopWindow = startWindowMode(store, fetcher, () => []);
    store.queueDelta({ head: 1, sessions: sessions(0, SESSIONS_WHOLE) });
    expect(useSessionsWindow.getState().windowed).toBe(false);
    store.queueDelta({ head: 2, sessions: [session(SESSIONS_WHOLE)] });
    expect(useSessionsWindow.getState()).toMatchObject({ windowed: true, total: SESSIONS_WHOLE + 1 });
    expect(store.getState().sessions.size).toBe(SESSIONS_HELD);
    store.queueDelta({ head: 3, sessions: [session(SESSIONS_WHOLE + 1)] });
    expect(useWindow.getState().windowed).toBe(true);
    stopSessions();
    stopWindow();
  });
});
