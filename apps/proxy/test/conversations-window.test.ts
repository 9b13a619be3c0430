// The sidebar of a capture with thousands of conversations reads them by position:
// `GET /api/conversations/window`. Wherever the window sits (any offset, any size, around any
// conversation), it is exactly that slice of `GET /api/conversations` — the most recently started
// first, ties by key — with the list's length; conversations written live move the count and
// start the list. Each conversation here is a session whose credential no other session shares,
// written through the pipeline's own write path in process, as the tap writes it; pairs of them
// start in the same millisecond, so the order's tie-break is part of what is checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ConversationsPage, ConversationsWindowPage, ConversationSummary, SessionsPage } from '@mcpscope/protocol';
import { apiGet } from './support/api.js';
import { startTestMcpscope } from './support/mcpscope.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';

const CONVERSATIONS = 3000;

let app: Mcpscope;
/** Conversations written so far (the next one's number). */
let written = 0;

/** Opens the `n`-th conversation: one session, its initialize sent with a credential of its own. */
function openConversation(n: number, ts: number): void {
  const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host', version: '1' } } });
  app.pipeline.record({ ts, sessionKey: `conv-session-${n}`, direction: 'c2s', transport: 'http-json', kind: 'data', raw, http: { method: 'POST', path: '/mcp', credential: `fingerprint-${n}` } });
}

beforeAll(async () => {
  app = await startTestMcpscope();
  for (; written < CONVERSATIONS; written++) {
    openConversation(written, 1_750_000_000_000 + Math.floor(written / 2));
    if (written % 1000 === 999) app.pipeline.flush(true);
  }
  app.pipeline.flush(true);
}, 120_000);
afterAll(() => app?.close());

const windowAt = (query: string) => apiGet<ConversationsWindowPage>(app, `/api/conversations/window?${query}`);
const whole = async () => (await apiGet<ConversationsPage>(app, '/api/conversations')).conversations;
const keys = (list: readonly ConversationSummary[]) => list.map((c) => c.key);

describe('conversations by position', () => {
  it('the whole list is the sidebar order: the most recently started first, ties by key', async () => {
    const list = await whole();
    expect(list).toHaveLength(CONVERSATIONS);
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(a.firstTs > b.firstTs || (a.firstTs === b.firstTs && a.key < b.key), `${a.key} before ${b.key}`).toBe(true);
    }
  });

  it('any window is that slice of the whole list, with its length', async () => {
    const list = keys(await whole());
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: CONVERSATIONS + 20 }), fc.integer({ min: 1, max: 400 }), async (offset, limit) => {
        const page = await windowAt(`offset=${offset}&limit=${limit}`);
        expect(page).toMatchObject({ offset: Math.min(offset, CONVERSATIONS), total: CONVERSATIONS });
        expect(keys(page.conversations)).toEqual(list.slice(offset, offset + limit));
      }),
      { numRuns: 60 },
    );
  });

  it('around any conversation: its position, and the window around it is the slice there', async () => {
    const list = keys(await whole());
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: CONVERSATIONS - 1 }), fc.integer({ min: 1, max: 300 }), async (at, limit) => {
        const page = await windowAt(`around=${encodeURIComponent(list[at]!)}&limit=${limit}`);
        expect(page.position).toBe(at);
        expect(page.offset).toBe(Math.max(0, at - Math.floor(limit / 2)));
        expect(keys(page.conversations)).toEqual(list.slice(page.offset, page.offset + limit));
        expect(keys(page.conversations)).toContain(list[at]);
      }),
      { numRuns: 40 },
    );
    expect(await windowAt('around=no-such-conversation&limit=10')).toMatchObject({ position: -1, total: CONVERSATIONS });
  });

  it('the route is the window, not a conversation keyed "window"', async () => {
    const page = await windowAt('limit=1');
    expect(page.total).toBe(CONVERSATIONS);
  });

  it("a page's conversations: their sessions in one read, by the conversations' keys", async () => {
    const page = await windowAt('offset=1200&limit=100');
    const asked = keys(page.conversations);
    const { sessions } = await apiGet<SessionsPage>(app, `/api/sessions?conversations=${asked.join(',')}`);
    expect(new Set(sessions.map((s) => s.conversationKey))).toEqual(new Set(asked));
    expect(sessions).toHaveLength(asked.length);
    expect((await apiGet<SessionsPage>(app, '/api/sessions?conversations=no-such-conversation')).sessions).toEqual([]);
  });

  it('a growing capture: new conversations start the list and move the count; a conversation that grows stays counted once', async () => {
    const before = keys(await whole());
    const added = [written, written + 1];
    for (const n of added) openConversation(n, 1_760_000_000_000 + n);
    written += added.length;
    // Another session with the newest conversation's credential joins it: it changes, the count does not.
    const raw = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host', version: '1' } } });
    app.pipeline.record({ ts: 1_760_000_000_100, sessionKey: 'conv-session-again', direction: 'c2s', transport: 'http-json', kind: 'data', raw, http: { method: 'POST', path: '/mcp', credential: `fingerprint-${added[1]}` } });
    app.pipeline.flush(true);
    const after = keys(await whole());
    const top = await windowAt('offset=0&limit=3');
    expect(top.total).toBe(CONVERSATIONS + 2);
    expect(keys(top.conversations)).toEqual(after.slice(0, 3));
    expect(after.slice(2)).toEqual(before);
    const far = await windowAt(`offset=${CONVERSATIONS - 10}&limit=20`);
    expect(far).toMatchObject({ offset: CONVERSATIONS - 10, total: CONVERSATIONS + 2 });
    expect(keys(far.conversations)).toEqual(before.slice(CONVERSATIONS - 12));
  });
});
