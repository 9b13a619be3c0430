import { describe, expect, it } from 'vitest';
import type { ExchangeSummary, ServerEvent } from '@mcpscope/protocol';
import { createLiveStore } from './live-store.js';
import { FIRST_PAGE, startLiveSync, type SyncApi, type SyncSocket } from './live-sync.js';
import { useWindow } from './window-store.js';
import { SESSIONS_HELD, useSessionsWindow } from './session-windows.js';
import { CONVERSATIONS_HELD, resetConversationsWindow } from './conversation-windows.js';

const ex = (id: string, updatedSeq: number, status: ExchangeSummary['status'] = 'ok'): ExchangeSummary => ({
  id, sessionKey: 's', requester: 'client', kind: 'request', method: 'tools/call', status, startTs: 0, frameSeqs: [Number(id)], size: 1, diagnostics: 0, updatedSeq,
});

class FakeSocket implements SyncSocket {
  onopen: SyncSocket['onopen'] = null;
  onmessage: SyncSocket['onmessage'] = null;
  onclose: SyncSocket['onclose'] = null;
  closed = false;
  constructor(readonly url: string) {}
  emit(event: ServerEvent) {
    this.onmessage?.call(this, { data: JSON.stringify(event) });
  }
  drop() {
    this.closed = true;
    this.onclose?.call(this, {});
  }
  close() {
    this.closed = true;
  }
}

const retention = { removedFrames: 0, oldestSeq: 0 };
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('live sync', () => {
  it('tells a refused token (a restart with a new one) from a connection that is down', async () => {
    const store = createLiveStore((run) => run());
    const sockets: FakeSocket[] = [];
    let refuse = false;
    const refused = Object.assign(new Error('Missing or wrong token'), { status: 401 });
    const api: SyncApi = {
      exchanges: async () => ({ head: 1, exchanges: [ex('1', 1)], retention }),
      sessions: async () => {
        if (refuse) throw refused;
        return { sessions: [] };
      },
      socketUrl: (after) => `ws://x/ws?after=${after}`,
    };
    const stop = startLiveSync(api, store, { openSocket: (url) => (sockets.push(new FakeSocket(url)), sockets.at(-1)!), backoff: () => 0 });
    await tick();
    sockets[0]!.onopen?.call(sockets[0]!, {});
    refuse = true;
    sockets[0]!.drop();
    expect(store.getState().connection).toBe('down');
    await tick();
    await tick();
    expect(store.getState().connection).toBe('rejected');
    expect(sockets).toHaveLength(1);
    // The same token accepted again (restarted once more with it): live, from where it was.
    refuse = false;
    await tick();
    await tick();
    expect(sockets[1]!.url).toBe('ws://x/ws?after=1');
    sockets[1]!.onopen?.call(sockets[1]!, {});
    expect(store.getState().connection).toBe('live');
    stop();
  });

  it('resumes after a drop from the last applied head: no gap, no duplicate', async () => {
    const store = createLiveStore((run) => run());
    const sockets: FakeSocket[] = [];
    const api: SyncApi = {
      exchanges: async () => ({ head: 2, exchanges: [ex('2', 2), ex('1', 1)], retention: { removedFrames: 0, oldestSeq: 0 } }),
      sessions: async () => ({ sessions: [] }),
      socketUrl: (after) => `ws://x/ws?after=${after}`,
    };
    const stop = startLiveSync(api, store, { openSocket: (url) => (sockets.push(new FakeSocket(url)), sockets.at(-1)!), backoff: () => 0 });
    await tick();
    expect(sockets[0]!.url).toBe('ws://x/ws?after=2');
    sockets[0]!.onopen?.call(sockets[0]!, {});
    expect(store.getState().connection).toBe('live');
    sockets[0]!.emit({ type: 'exchanges/update', head: 4, exchanges: [ex('3', 3), ex('4', 4, 'pending')] });
    sockets[0]!.emit({ type: 'frames/add', head: 4, frames: [] });
    // A flush cut short after its exchanges/update: the cursor must not move past frames not seen.
    sockets[0]!.emit({ type: 'exchanges/update', head: 6, exchanges: [ex('6', 6)] });
    sockets[0]!.drop();
    expect(store.getState().connection).toBe('down');
    await tick();
    // The new socket asks for everything after seq 4; the server's catch-up overlaps a little.
    expect(sockets[1]!.url).toBe('ws://x/ws?after=4');
    sockets[1]!.onopen?.call(sockets[1]!, {});
    sockets[1]!.emit({ type: 'exchanges/update', head: 6, exchanges: [ex('4', 4, 'pending'), ex('4', 5, 'ok'), ex('5', 5), ex('6', 6)] });
    sockets[1]!.emit({ type: 'frames/add', head: 6, frames: [] });
    const { index } = store.getState();
    expect(index.ids).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(index.get('4')!.status).toBe('ok');
    expect(store.getState().head).toBe(6);
    stop();
  });

  it('reloads the snapshot when the server says the dashboard fell behind', async () => {
    const store = createLiveStore((run) => run());
    const sockets: FakeSocket[] = [];
    let snapshots = 0;
    const api: SyncApi = {
      exchanges: async () => (++snapshots === 1 ? { head: 1, exchanges: [ex('1', 1)], retention } : { head: 9, exchanges: [ex('9', 9), ex('1', 1)], retention }),
      sessions: async () => ({ sessions: [] }),
      socketUrl: (after) => `ws://x/ws?after=${after}`,
    };
    const stop = startLiveSync(api, store, { openSocket: (url) => (sockets.push(new FakeSocket(url)), sockets.at(-1)!), backoff: () => 0 });
    await tick();
    sockets[0]!.emit({ type: 'resync', head: 9, reason: 'behind' });
    await tick();
    expect(sockets[0]!.closed).toBe(true);
    expect(sockets[1]!.url).toBe('ws://x/ws?after=9');
    expect(store.getState().index.ids).toEqual(['1', '9']);
    stop();
  });

  it('a resync on a capture of a million exchanges, 50,000 sessions and 30,000 conversations reads windows, never the whole lists', async () => {
    const initial = [useWindow.getState(), useSessionsWindow.getState()] as const;
    const store = createLiveStore((run) => run());
    const sockets: FakeSocket[] = [];
    const reads: string[] = [];
    const api: SyncApi = {
      exchanges: async (limit, before) => (reads.push(`exchanges ${limit} before ${before}`), { head: 1_000_000, exchanges: [ex('1000000', 1_000_000)], nextBefore: 999_999, retention }),
      sessions: async () => (reads.push('every session'), { sessions: [] }),
      conversations: async () => (reads.push('every conversation'), { conversations: [] }),
      exchangeWindow: async (_query, _at, limit) => (reads.push(`exchange window ${limit}`), { offset: 999_999, exchanges: [], total: 1_000_000, complete: true, head: 1_000_000 }),
      sessionWindow: async (_list, _at, limit) => (reads.push(`session window ${limit}`), { offset: 0, sessions: [], total: 50_000 }),
      conversationWindow: async (_at, limit) => (reads.push(`conversation window ${limit}`), { offset: 0, conversations: [], total: 30_000 }),
      socketUrl: (after) => `ws://x/ws?after=${after}`,
    };
    try {
      const stop = startLiveSync(api, store, { openSocket: (url) => (sockets.push(new FakeSocket(url)), sockets.at(-1)!), backoff: () => 0 });
      await expect.poll(() => sockets.length).toBe(1);
      reads.length = 0;
      sockets[0]!.emit({ type: 'resync', head: 1_000_000, reason: 'behind' });
      await expect.poll(() => sockets.length).toBe(2);
      expect(reads.sort()).toEqual([`conversation window ${CONVERSATIONS_HELD}`, `exchange window 1`, `exchanges ${FIRST_PAGE} before undefined`, `session window ${SESSIONS_HELD}`]);
      stop();
    } finally {
      useWindow.setState(initial[0], true);
      useSessionsWindow.setState(initial[1], true);
      resetConversationsWindow();
    }
  });

  it('paints the newest page first and streams older pages in behind it', async () => {
    const store = createLiveStore((run) => run());
    const calls: (number | undefined)[] = [];
    const api: SyncApi = {
      exchanges: async (_limit, before) => {
        calls.push(before);
        return before === undefined ? { head: 4, exchanges: [ex('4', 4), ex('3', 3)], nextBefore: 3, retention } : { head: 4, exchanges: [ex('2', 2), ex('1', 1)], retention };
      },
      sessions: async () => ({ sessions: [] }),
      socketUrl: (after) => `ws://x/ws?after=${after}`,
    };
    const sockets: FakeSocket[] = [];
    const stop = startLiveSync(api, store, { openSocket: (url) => (sockets.push(new FakeSocket(url)), sockets.at(-1)!) });
    await tick();
    await tick();
    expect(calls).toEqual([undefined, 3]);
    expect(sockets[0]!.url).toBe('ws://x/ws?after=4');
    expect(store.getState().index.ids).toEqual(['1', '2', '3', '4']);
    stop();
  });
});
