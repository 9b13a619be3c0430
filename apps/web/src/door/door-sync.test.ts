// Door records in the dashboard: pages then events, idempotent by rev; the socket's door cursor
// only once the pages are in; a resync reloads; past the cap the store holds the newest and the
// table reads the server's list by windows.
import { describe, expect, it } from 'vitest';
import type { DoorRecord, RequestsPage, RequestsWindowPage } from '@mcpscope/protocol';
import { DOOR_CAP, DOOR_RECENT, createDoorStore, doorReads } from '../store/door-store.js';
import type { ListAt } from '../store/list-window.js';
import { startDoorSync } from './door-sync.js';
import { useUi } from '../store/ui-store.js';

function record(id: number, rev = id, status = 200): DoorRecord {
  return { id, rev, ts: id, method: 'GET', path: `/p${id}`, status, answer: 'upstream', end: 'complete', requestHeaders: {}, responseHeaders: {}, requestBytes: 0, responseBytes: 0, peer: { address: '127.0.0.1', connection: 1 } };
}

const freshStore = createDoorStore;

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('door sync', () => {
  it('reads every page, then resumes the socket from the rev reading began at', async () => {
    const store = freshStore();
    const pages: RequestsPage[] = [
      { requests: [record(1), record(2)], head: 3, rev: 5, nextAfter: 2 },
      { requests: [record(3, 9)], head: 3, rev: 9 },
    ];
    const sync = startDoorSync({ requests: async () => pages.shift()! }, store);
    expect(sync.socketParams()).toBe('');
    await tick();
    await tick();
    expect([...store.getState().records.keys()]).toEqual([1, 2, 3]);
    expect(sync.socketParams()).toBe('&requestsRev=5');
    sync.onEvent({ type: 'requests/update', head: 0, rev: 12, requests: [record(2, 12, 404)] });
    expect(store.getState().records.get(2)!.status).toBe(404);
    // An older copy never replaces a newer one.
    sync.onEvent({ type: 'requests/update', head: 0, rev: 12, requests: [record(2, 3, 500)] });
    expect(store.getState().records.get(2)!.status).toBe(404);
    expect(sync.socketParams()).toBe('&requestsRev=12');
    sync.stop();
  });

  it('notes the first record that came through a tunnel, and keeps noting it', () => {
    const store = freshStore();
    store.getState().apply([{ ...record(1), host: '127.0.0.1:7788' }, { ...record(2), host: 'localhost' }]);
    expect(store.getState().tunnelled).toBe(false);
    store.getState().apply([{ ...record(3), host: 'abc.trycloudflare.com' }]);
    expect(store.getState().tunnelled).toBe(true);
    store.getState().apply([{ ...record(4), host: '[::1]:7788' }]);
    expect(store.getState().tunnelled).toBe(true);
  });

  it('retries a failed load, and reloads after a resync', async () => {
    const store = freshStore();
    let calls = 0;
    const sync = startDoorSync(
      {
        requests: async () => {
          calls++;
          if (calls === 1) throw new Error('proxy restarting');
          return { requests: [record(calls)], head: calls, rev: calls };
        },
      },
      store,
      1,
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(store.getState().loaded).toBe(true);
    sync.onEvent({ type: 'resync', head: 0, reason: 'behind' });
    expect(sync.socketParams()).toBe('');
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBe(3);
    expect(store.getState().loaded).toBe(true);
    sync.stop();
  });

  it('holds DOOR_CAP records whole; one more and it is windowed, holding the newest DOOR_RECENT', () => {
    const store = freshStore();
    store.getState().apply(Array.from({ length: DOOR_CAP }, (_, i) => record(i + 1)));
    expect(store.getState()).toMatchObject({ windowed: false });
    expect(store.getState().records.size).toBe(DOOR_CAP);
    store.getState().apply([record(DOOR_CAP + 1)]);
    const ids = [...store.getState().records.keys()];
    expect(store.getState().windowed).toBe(true);
    expect(ids.length).toBe(DOOR_RECENT);
    expect(Math.min(...ids)).toBe(DOOR_CAP + 2 - DOOR_RECENT);
  });
});

/** A door of `count` records as the server lists them: pages and windows over the same list. */
function door(count: number) {
  const all = Array.from({ length: count }, (_, i) => record(i + 1));
  const asked: string[] = [];
  return {
    all,
    asked,
    requests: async (after: number, limit: number): Promise<RequestsPage> => {
      asked.push(`page after ${after}`);
      const rest = all.filter((r) => r.id > after);
      const page = rest.slice(0, limit);
      return { requests: page, head: count, rev: count, ...(rest.length > limit ? { nextAfter: page.at(-1)!.id } : {}) };
    },
    requestsWindow: async (_filter: string, at: ListAt<number>, limit: number): Promise<RequestsWindowPage> => {
      const offset = 'end' in at ? Math.max(0, all.length - limit) : 'offset' in at ? at.offset : Math.max(0, at.around - 1 - limit / 2);
      asked.push(`window ${offset}+${limit}`);
      return { offset, requests: all.slice(offset, offset + limit), total: all.length, complete: true, rev: all.length, ...('around' in at ? { position: at.around - 1 } : {}) };
    },
    doorRecord: async (id: number) => all[id - 1]!,
  };
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await tick();
  expect(ok()).toBe(true);
};

describe('door sync of a door past DOOR_CAP', () => {
  it('reads only the newest DOOR_RECENT records, and the table reads a window of the whole list', async () => {
    const store = freshStore();
    const api = door(DOOR_CAP * 3);
    const sync = startDoorSync(api, store);
    await until(() => store.getState().loaded && store.getState().records.size === DOOR_RECENT);
    expect(store.getState()).toMatchObject({ windowed: true, total: DOOR_CAP * 3 });
    expect(Math.min(...store.getState().records.keys())).toBe(DOOR_CAP * 3 - DOOR_RECENT + 1);
    expect(api.asked.filter((a) => a.startsWith('page'))).toEqual([]);
    // In short reads, so the server answers the dashboard's other first reads between them.
    const sizes = api.asked.filter((a) => a.startsWith('window')).map((a) => Number(a.split('+')[1]));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(500);
    expect(sync.socketParams()).toBe(`&requestsRev=${DOOR_CAP * 3}`);

    // The table scrolled to the middle: the rows there and a margin, nothing more.
    const window = doorReads()!.window;
    window.want(30_000, 30_040, false);
    await until(() => window.store.getState().offset <= 30_000 && window.store.getState().rows.length > 0);
    const held = window.store.getState();
    expect(held.rows.length).toBeLessThan(400);
    expect(held.rows[30_000 - held.offset]!.id).toBe(30_001);
    sync.stop();
  });

  /** A door past the cap whose table follows its end, with `view` shown; `arrive` adds a live record. */
  async function followedDoor(view: 'connections' | 'exchanges') {
    useUi.getState().setMode(view);
    const store = freshStore();
    const api = door(DOOR_CAP + 100);
    const sync = startDoorSync(api, store);
    await until(() => store.getState().loaded);
    const window = doorReads()!.window;
    window.want(DOOR_CAP + 80, DOOR_CAP + 99, true);
    await until(() => window.store.getState().total === DOOR_CAP + 100);
    const arrive = () => {
      const next = record(DOOR_CAP + 101);
      api.all.push(next);
      sync.onEvent({ type: 'requests/update', head: next.id, rev: next.rev, requests: [next] });
      return next;
    };
    return { store, api, sync, window, arrive };
  }

  it('a live record moves the count and the window that follows the end, in the Connections view', async () => {
    const { store, sync, window, arrive } = await followedDoor('connections');
    const next = arrive();
    await until(() => store.getState().total === DOOR_CAP + 101 && window.store.getState().rows.at(-1)?.id === next.id);
    expect(store.getState().records.get(next.id)).toEqual(next);
    sync.stop();
  });

  it('another view shown: live records read neither the table nor the count, until the Connections view is shown', async () => {
    const { store, api, sync, window, arrive } = await followedDoor('exchanges');
    const reads = api.asked.length;
    const next = arrive();
    for (let i = 0; i < 5; i++) await tick();
    expect(api.asked.length).toBe(reads);
    expect(store.getState().records.get(next.id)).toEqual(next);
    useUi.getState().setMode('connections');
    await until(() => store.getState().total === DOOR_CAP + 101 && window.store.getState().rows.at(-1)?.id === next.id);
    sync.stop();
  });
});
