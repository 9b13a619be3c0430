import { beforeEach, describe, expect, it } from 'vitest';
import type { ConversationSummary, ConversationsWindowPage } from '@mcpscope/protocol';
import { createLiveStore } from './live-store.js';
import { startLiveSync, type SyncApi } from './live-sync.js';
import { CONVERSATIONS_HELD, CONVERSATIONS_PAGE, CONVERSATIONS_WHOLE, ConversationWindows, resetConversationsWindow, useConversationsWindow, type ConversationWindowRead } from './conversation-windows.js';
import { startConversationWindowMode } from './conversation-window-mode.js';

/** Conversation `n`, started at `n` ms (its key orders like the capture, as `c` + a seq does). */
const conversation = (n: number, updatedSeq = n): ConversationSummary => ({
  key: `c${String(n).padStart(6, '0')}`,
  host: 'ChatGPT',
  joinedBy: { host: 1 },
  hints: {},
  firstTs: n,
  lastTs: n,
  counts: { ok: 1 },
  churn: { sessions: 1, initialize: 1, toolsList: 1, toolsCall: 1, unusedSessions: 0, staleSessionCalls: 0 },
  era: { probes: 0, failedProbes: 0, fallbacks: 0, mismatches: 0, steps: [], recent: [] },
  updatedSeq,
});
const conversations = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => conversation(from + i));

/** The proxy's `GET /api/conversations/window` over `all` (as apps/proxy/test/conversations-window.test.ts pins it), noting each read. */
function conversationServer(all: ConversationSummary[]) {
  const reads: { at: { offset: number } | { around: string }; limit: number }[] = [];
  const read: ConversationWindowRead = async (at, limit) => {
    reads.push({ at, limit });
    const rows = all.slice().sort((a, b) => b.firstTs - a.firstTs);
    const position = 'around' in at ? rows.findIndex((c) => c.key === at.around) : undefined;
    const offset = position !== undefined ? Math.max(0, position - Math.floor(limit / 2)) : (at as { offset: number }).offset;
    const page: ConversationsWindowPage = { offset: Math.min(offset, rows.length), conversations: rows.slice(offset, offset + limit), total: rows.length };
    if (position !== undefined) page.position = position;
    return page;
  };
  return { read, reads };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const until = async (done: () => boolean) => {
  for (let i = 0; i < 5000 && !done(); i++) await tick();
  expect(done()).toBe(true);
};
const keys = (list: readonly ConversationSummary[]) => list.map((c) => c.key);
const noSocket = () => ({ onopen: null, onmessage: null, onclose: null, close() {} });

beforeEach(() => resetConversationsWindow());

/** A sync API over `all` conversations, with no exchanges or sessions; `every` counts reads of every conversation at once. */
function syncApi(all: ConversationSummary[]) {
  const server = conversationServer(all);
  const counted = { every: 0 };
  const api: SyncApi = {
    exchanges: async () => ({ head: 1, exchanges: [], retention: { removedFrames: 0, oldestSeq: 0 } }),
    sessions: async () => ({ sessions: [] }),
    conversations: async () => (counted.every++, { conversations: all }),
    conversationWindow: server.read,
    socketUrl: () => 'ws://x',
  };
  return { api, counted };
}

describe('a capture with tens of thousands of conversations', () => {
  it('opens with the newest conversations and their count, never every conversation', async () => {
    const { api, counted } = syncApi(conversations(0, 30_000));
    const store = createLiveStore((run) => run());
    const stop = startLiveSync(api, store, { openSocket: noSocket });
    await until(() => store.getState().loaded);
    expect(counted.every).toBe(0);
    expect(store.getState().conversations.size).toBe(CONVERSATIONS_HELD);
    expect(store.getState().conversations.has(conversation(29_999).key)).toBe(true);
    expect(useConversationsWindow.getState()).toMatchObject({ windowed: true, total: 30_000 });
    stop();
  });

  it('holds every conversation up to CONVERSATIONS_WHOLE, as a list it reads whole', async () => {
    const few = syncApi(conversations(0, 300));
    const store = createLiveStore((run) => run());
    startLiveSync(few.api, store, { openSocket: noSocket })();
    await until(() => store.getState().loaded);
    expect([store.getState().conversations.size, few.counted.every, useConversationsWindow.getState().windowed]).toEqual([300, 0, false]);

    const some = syncApi(conversations(0, CONVERSATIONS_WHOLE));
    const other = createLiveStore((run) => run());
    startLiveSync(some.api, other, { openSocket: noSocket })();
    await until(() => other.getState().loaded);
    expect([other.getState().conversations.size, some.counted.every, useConversationsWindow.getState().windowed]).toEqual([CONVERSATIONS_WHOLE, 1, false]);
  });

  it('the sidebar pages through the server list by position, with its count', async () => {
    const all = conversations(0, 30_000);
    const server = conversationServer(all);
    const windows = new ConversationWindows(server.read, () => {});
    windows.show(0);
    await until(() => useConversationsWindow.getState().loaded);
    expect(useConversationsWindow.getState()).toMatchObject({ offset: 0, total: 30_000 });
    expect(keys(useConversationsWindow.getState().rows)).toEqual(keys(conversations(30_000 - CONVERSATIONS_PAGE, 30_000).reverse()));
    windows.show(25_000);
    await until(() => useConversationsWindow.getState().rows[0]?.key === conversation(4_999).key);
    expect(useConversationsWindow.getState()).toMatchObject({ offset: 25_000, total: 30_000 });
    expect(Math.max(...server.reads.map((r) => r.limit))).toBe(CONVERSATIONS_PAGE);
  });

  it('live updates move the page or the count without a read; one outside the page is read again', async () => {
    const all = conversations(0, 30_000);
    const server = conversationServer(all);
    const windows = new ConversationWindows(server.read, () => {});
    windows.show(0);
    await until(() => useConversationsWindow.getState().loaded);
    const reads = server.reads.length;

    // A held conversation changes: replaced in place; an older state of it does not go back.
    const changed = { ...conversation(29_990, 50_000), counts: { ok: 7 } };
    windows.absorb([changed, conversation(29_990, 40_000)]);
    expect(useConversationsWindow.getState().rows.find((c) => c.key === changed.key)?.counts).toEqual({ ok: 7 });
    // Two new conversations start the list: the count moves, the page keeps its size.
    all.push(conversation(30_000), conversation(30_001));
    windows.absorb([conversation(30_000), conversation(30_001)]);
    expect(useConversationsWindow.getState()).toMatchObject({ offset: 0, total: 30_002 });
    expect(keys(useConversationsWindow.getState().rows.slice(0, 3))).toEqual([conversation(30_001).key, conversation(30_000).key, conversation(29_999).key]);
    expect(useConversationsWindow.getState().rows).toHaveLength(CONVERSATIONS_PAGE);
    expect(server.reads.length).toBe(reads);

    // A page far from the top: a new conversation before it moves its position, the rows stay.
    windows.show(20_000);
    await until(() => useConversationsWindow.getState().offset === 20_000 && useConversationsWindow.getState().rows[0]?.key === conversation(10_001).key);
    const afterPaging = server.reads.length;
    all.push(conversation(30_002));
    windows.absorb([conversation(30_002)]);
    expect(useConversationsWindow.getState()).toMatchObject({ offset: 20_001, total: 30_003 });
    expect(useConversationsWindow.getState().rows[0]!.key).toBe(conversation(10_001).key);
    // A conversation outside the page that changes: nothing moves.
    windows.absorb([conversation(5, 90_000)]);
    expect(useConversationsWindow.getState()).toMatchObject({ offset: 20_001, total: 30_003 });
    expect(server.reads.length).toBe(afterPaging);
    // The server agrees: the page at the new position holds the same rows.
    const page = await server.read({ offset: 20_001 }, CONVERSATIONS_PAGE);
    expect(keys(page.conversations)).toEqual(keys(useConversationsWindow.getState().rows));
  });

  it('a conversation that arrives while the first page is read is not lost', async () => {
    const all = conversations(0, 30_000);
    const server = conversationServer(all);
    let answer: (() => void) | undefined;
    // The first read is answered with the list as it was when asked, after a new conversation arrived.
    const read: ConversationWindowRead = async (at, limit) => {
      const page = await server.read(at, limit);
      if (server.reads.length === 1) await new Promise<void>((resolve) => (answer = resolve));
      return page;
    };
    const windows = new ConversationWindows(read, () => {});
    windows.show(0);
    await until(() => answer !== undefined);
    all.push(conversation(30_000));
    windows.absorb([conversation(30_000)]);
    answer!();
    await until(() => useConversationsWindow.getState().total === 30_001);
    expect(useConversationsWindow.getState().rows[0]!.key).toBe(conversation(30_000).key);
    windows.stop();
  });

  it('a conversation far from the newest is read by key and held while chosen; the store stays bounded as conversations arrive', async () => {
    const all = conversations(0, 30_000);
    const server = conversationServer(all);
    const store = createLiveStore((run) => run());
    const windows = new ConversationWindows(server.read, (held) => store.queueDelta({ conversations: held }));
    let chosen: string[] = [];
    store.queueDelta({ head: 1, conversations: all.slice(-CONVERSATIONS_HELD) });
    useConversationsWindow.setState({ windowed: true, total: all.length });
    const stop = startConversationWindowMode(store, windows, () => chosen);
    chosen = [conversation(1_234).key];
    windows.fetch(chosen[0]!);
    windows.fetch(conversation(3).key);
    windows.fetch('c-no-such');
    await until(() => store.getState().conversations.has(chosen[0]!) && store.getState().conversations.has(conversation(3).key) && useConversationsWindow.getState().absent.has('c-no-such'));
    for (let n = 30_000; n < 30_000 + 2 * CONVERSATIONS_HELD; n += 100) store.queueDelta({ conversations: conversations(n, n + 100) });
    const held = store.getState().conversations;
    expect(held.size).toBeLessThanOrEqual(2 * CONVERSATIONS_HELD + 1);
    expect(held.has(chosen[0]!)).toBe(true);
    expect(held.has(conversation(3).key)).toBe(false);
    expect(held.has(conversation(30_000 + 2 * CONVERSATIONS_HELD - 1).key)).toBe(true);
    stop();
    windows.stop();
  });

  it('a capture held whole whose conversations grow past CONVERSATIONS_WHOLE becomes windowed in place', async () => {
    const all = conversations(0, CONVERSATIONS_WHOLE + 1);
    const server = conversationServer(all);
    const store = createLiveStore((run) => run());
    const windows = new ConversationWindows(server.read, () => {});
    const stop = startConversationWindowMode(store, windows, () => []);
    store.queueDelta({ head: 1, conversations: all.slice(0, CONVERSATIONS_WHOLE) });
    expect(useConversationsWindow.getState().windowed).toBe(false);
    store.queueDelta({ head: 2, conversations: all.slice(CONVERSATIONS_WHOLE) });
    expect(useConversationsWindow.getState()).toMatchObject({ windowed: true });
    expect(store.getState().conversations.size).toBe(CONVERSATIONS_HELD);
    await until(() => useConversationsWindow.getState().loaded);
    expect(useConversationsWindow.getState()).toMatchObject({ offset: 0, total: CONVERSATIONS_WHOLE + 1 });
    stop();
    windows.stop();
  });
});
