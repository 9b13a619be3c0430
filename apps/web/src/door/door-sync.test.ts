// Door records in the dashboard: pages then events, idempotent by rev; the socket's door cursor
// only once the pages are in; a resync reloads; the cap keeps the newest.
import { describe, expect, it } from 'vitest';
import type { DoorRecord, RequestsPage } from '@mcpscope/protocol';
import { DOOR_CAP, createDoorStore } from '../store/door-store.js';
import { startDoorSync } from './door-sync.js';

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

  it('keeps the newest DOOR_CAP records', () => {
    const store = freshStore();
    store.getState().apply(Array.from({ length: DOOR_CAP + 10 }, (_, i) => record(i + 1)));
    const ids = [...store.getState().records.keys()];
    expect(ids.length).toBe(DOOR_CAP);
    expect(Math.min(...ids)).toBe(11);
  });
});
