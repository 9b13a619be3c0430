import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary, SessionsPage } from '@mcpscope/protocol';
import { LoneSessions, setLoneSessions, useLoneSessions } from './lone-sessions.js';

/** The session of conversation `c<n>`, its only one. */
const sessionOf = (n: number, calls = 1): SessionSummary => ({ sessionKey: `s-${n}`, transport: 'http-json', firstTs: n, lastTs: n, counts: { ok: calls }, conversationKey: `c${n}` });

/** The proxy's `GET /api/sessions?conversations=…` over conversations `c0`…`c<count-1>`, noting each read. */
function server(count: number, absent: ReadonlySet<string> = new Set()) {
  const reads: string[][] = [];
  const read = async (keys: readonly string[]): Promise<SessionsPage> => {
    reads.push([...keys]);
    return { sessions: keys.filter((k) => !absent.has(k) && Number(k.slice(1)) < count).map((k) => sessionOf(Number(k.slice(1)))) };
  };
  return { read, reads };
}

const keys = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `c${from + i}`);
const settled = async (lone: LoneSessions, done: () => boolean) => {
  await expect.poll(done).toBe(true);
  return lone;
};

afterEach(() => setLoneSessions(undefined));

describe('the sessions of a sidebar page of one-session conversations', () => {
  it('a page costs one read, whatever it draws, and paging back costs none', async () => {
    const { read, reads } = server(1000);
    const lone = new LoneSessions(read);
    setLoneSessions(lone);
    lone.show(keys(0, 100));
    await settled(lone, () => useLoneSessions.getState().sessions.size === 100);
    expect(reads).toEqual([keys(0, 100)]);
    expect(useLoneSessions.getState().sessions.get('c42')?.sessionKey).toBe('s-42');
    // The next page: one read for its conversations; the first page's sessions are let go.
    lone.show(keys(100, 200));
    await settled(lone, () => useLoneSessions.getState().sessions.has('c199'));
    expect(reads).toHaveLength(2);
    expect(useLoneSessions.getState().sessions.has('c42')).toBe(false);
    // Drawn again with the same conversations (a re-render): no read.
    lone.show(keys(100, 200));
    expect(reads).toHaveLength(2);
  });

  it('pages drawn while a read is out are read after it, in one read', async () => {
    const { read, reads } = server(1000);
    const lone = new LoneSessions(read);
    setLoneSessions(lone);
    lone.show(keys(0, 100));
    lone.show(keys(100, 200));
    lone.show(keys(200, 300));
    await settled(lone, () => useLoneSessions.getState().sessions.has('c250'));
    expect(reads).toEqual([keys(0, 100), keys(200, 300)]);
    expect(useLoneSessions.getState().sessions.size).toBe(100);
  });

  it('a live update replaces a held session without a read; a resync reads the page again', async () => {
    const { read, reads } = server(1000);
    const lone = new LoneSessions(read);
    setLoneSessions(lone);
    lone.show(keys(0, 10));
    await settled(lone, () => useLoneSessions.getState().sessions.size === 10);
    lone.absorb([sessionOf(3, 7), sessionOf(500, 2)]);
    expect(useLoneSessions.getState().sessions.get('c3')?.counts.ok).toBe(7);
    expect(useLoneSessions.getState().sessions.has('c500')).toBe(false);
    expect(reads).toHaveLength(1);
    lone.refresh();
    await settled(lone, () => reads.length === 2);
    expect(reads[1]).toEqual(keys(0, 10));
  });

  it('a conversation the server has no session for is missing (its row reads its own), and not asked again', async () => {
    const { read, reads } = server(1000, new Set(['c5']));
    const lone = new LoneSessions(read);
    setLoneSessions(lone);
    lone.show(keys(0, 10));
    await settled(lone, () => useLoneSessions.getState().missing.has('c5'));
    expect(useLoneSessions.getState().sessions.size).toBe(9);
    lone.show(keys(0, 10));
    expect(reads).toHaveLength(1);
  });
});
