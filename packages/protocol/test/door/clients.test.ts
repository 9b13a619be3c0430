// Grouping door records into clients: the MCP session when there is one, the conversation the
// deriver put sessions in when it is known, else identity (user agent, and the address for direct
// connections) and time. Properties on random traffic, then the stories a user recognises.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_GAP_MS, groupDoorClients, identityOf, type DoorClient, type DoorRecord } from '../../src/index.js';
import { door, resetDoorIds } from '../support/door.js';

beforeEach(() => resetDoorIds());

const GAP = 1000;

/** Random traffic: a few identities and sessions, gaps from 0 to 3 × GAP, some records still open. */
const trafficArb: fc.Arbitrary<DoorRecord[]> = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3 * GAP })),
      ua: fc.constantFrom('openai-mcp/1.0.0', 'node', 'Claude-User', undefined),
      address: fc.constantFrom('127.0.0.1', '10.0.0.2'),
      forwarded: fc.boolean(),
      session: fc.option(fc.constantFrom('s1', 's2', 's3', 's4'), { freq: 2 }),
      endMs: fc.integer({ min: 0, max: GAP }),
      open: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    }),
    { maxLength: 60 },
  )
  .map((specs) => {
    let ts = 0;
    return specs.map((s, i) => {
      ts += s.gap;
      const headers: Record<string, string> = {};
      if (s.ua) headers['user-agent'] = s.ua;
      if (s.forwarded) headers['x-forwarded-for'] = `203.0.113.${i % 7}`;
      const record = door({ id: i + 1, ts, endMs: s.endMs, end: s.open ? 'open' : 'complete', peer: { address: s.address, connection: i % 3 }, requestHeaders: headers, userAgent: s.ua });
      if (s.session) record.mcpSessionId = s.session;
      return record;
    });
  });

/**
 * The same traffic with a conversation for some of it, as the deriver would say: each session in
 * one conversation (or none), and some session-less MCP requests placed in one by themselves.
 */
const withConversationsArb = trafficArb.chain((records) =>
  fc.record({
    bySession: fc.dictionary(fc.constantFrom('s1', 's2', 's3', 's4'), fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined })),
    loose: fc.array(fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined, freq: 2 }), { minLength: records.length, maxLength: records.length }),
  }).map(({ bySession, loose }) => {
    const conversations = new Map<number, string>();
    for (const [i, r] of records.entries()) {
      const c = r.mcpSessionId !== undefined ? bySession[r.mcpSessionId] : loose[i];
      if (c !== undefined) conversations.set(r.id, c);
    }
    return { records, conversationOf: (r: DoorRecord) => conversations.get(r.id) };
  }),
);

const ids = (clients: DoorClient[]) => clients.map((c) => ({ key: c.key, records: c.records.map((r) => r.id) }));

describe('groupDoorClients (properties)', () => {
  it('partitions the records: each lands in exactly one client', () => {
    fc.assert(
      fc.property(trafficArb, (records) => {
        const seen = groupDoorClients(records, { gapMs: GAP }).flatMap((c) => c.records.map((r) => r.id));
        expect(seen.sort((a, b) => a - b)).toEqual(records.map((r) => r.id));
      }),
    );
  });

  it('does not depend on the order the records are given in', () => {
    fc.assert(
      fc.property(trafficArb, fc.integer(), (records, seed) => {
        const shuffled = [...records].sort((a, b) => ((a.id * 7919 + seed) % 101) - ((b.id * 7919 + seed) % 101));
        expect(ids(groupDoorClients(shuffled, { gapMs: GAP }))).toEqual(ids(groupDoorClients(records, { gapMs: GAP })));
      }),
    );
  });

  it('keeps a session in one client, and never puts two sessions in one', () => {
    fc.assert(
      fc.property(trafficArb, (records) => {
        const clients = groupDoorClients(records, { gapMs: GAP });
        for (const c of clients) expect(new Set(c.records.map((r) => r.mcpSessionId).filter(Boolean)).size).toBeLessThanOrEqual(1);
        const home = new Map<string, string>();
        for (const c of clients) for (const r of c.records) if (r.mcpSessionId) {
          expect(home.get(r.mcpSessionId) ?? c.key).toBe(c.key);
          home.set(r.mcpSessionId, c.key);
        }
      }),
    );
  });

  it('joins a record without a session only to its own identity, and within the gap', () => {
    fc.assert(
      fc.property(trafficArb, (records) => {
        for (const c of groupDoorClients(records, { gapMs: GAP })) {
          const sessionRecords = c.records.filter((r) => r.mcpSessionId);
          const loose = c.records.filter((r) => !r.mcpSessionId);
          if (sessionRecords.length > 0) {
            const identity = identityOf([...sessionRecords].sort((a, b) => a.id - b.id)[0]!);
            const start = Math.min(...sessionRecords.map((r) => r.ts));
            const end = Math.max(...sessionRecords.map((r) => (r.end === 'open' ? Infinity : r.ts + (r.endMs ?? 0))));
            for (const r of loose) {
              expect(identityOf(r)).toBe(identity);
              const distance = r.ts < start ? start - r.ts : r.ts > end ? r.ts - end : 0;
              expect(distance).toBeLessThanOrEqual(GAP);
            }
          } else {
            expect(new Set(loose.map(identityOf)).size).toBe(1);
            expect(c.key).toBe(`door:${loose[0]!.id}`);
          }
        }
      }),
    );
  });
});

describe('groupDoorClients with conversations (properties)', () => {
  it('still partitions the records, whatever order they come in', () => {
    fc.assert(
      fc.property(withConversationsArb, fc.integer(), ({ records, conversationOf }, seed) => {
        const clients = groupDoorClients(records, { gapMs: GAP, conversationOf });
        expect(clients.flatMap((c) => c.records.map((r) => r.id)).sort((a, b) => a - b)).toEqual(records.map((r) => r.id));
        const shuffled = [...records].sort((a, b) => ((a.id * 7919 + seed) % 101) - ((b.id * 7919 + seed) % 101));
        expect(ids(groupDoorClients(shuffled, { gapMs: GAP, conversationOf }))).toEqual(ids(clients));
      }),
    );
  });

  it('puts the sessions of one conversation in one client, and sessions of different ones (or none) apart', () => {
    fc.assert(
      fc.property(withConversationsArb, ({ records, conversationOf }) => {
        const clients = groupDoorClients(records, { gapMs: GAP, conversationOf });
        const home = new Map<string, string>();
        for (const c of clients) for (const r of c.records) if (r.mcpSessionId) home.set(r.mcpSessionId, c.key);
        const conversationOfSession = (id: string) => conversationOf(records.find((r) => r.mcpSessionId === id)!);
        for (const a of home.keys()) for (const b of home.keys()) {
          const ca = conversationOfSession(a);
          const together = a === b || (ca !== undefined && ca === conversationOfSession(b));
          expect(home.get(a) === home.get(b), `${a} and ${b}`).toBe(together);
        }
        for (const c of clients) {
          if (c.conversationKey === undefined) continue;
          expect(c.key).toBe(`conversation:${c.conversationKey}`);
          expect(c.joinedBy).toContain('conversation');
          // A session-less record the deriver placed is in its conversation's client.
          for (const r of records) if (!r.mcpSessionId && conversationOf(r) === c.conversationKey) expect(c.records).toContain(r);
        }
      }),
    );
  });
});

describe('groupDoorClients with conversations (identity)', () => {
  it('joins a record without evidence only to a client of its identity, and within the gap', () => {
    fc.assert(
      fc.property(withConversationsArb, ({ records, conversationOf }) => {
        for (const c of groupDoorClients(records, { gapMs: GAP, conversationOf })) {
          const evidence = c.records.filter((r) => r.mcpSessionId !== undefined || conversationOf(r) !== undefined);
          if (evidence.length === 0) continue;
          const identities = new Set(evidence.map(identityOf));
          const start = Math.min(...evidence.map((r) => r.ts));
          const end = Math.max(...evidence.map((r) => (r.end === 'open' ? Infinity : r.ts + (r.endMs ?? 0))));
          for (const r of c.records) {
            if (evidence.includes(r)) continue;
            expect(identities).toContain(identityOf(r));
            expect(r.ts < start ? start - r.ts : r.ts > end ? r.ts - end : 0).toBeLessThanOrEqual(GAP);
          }
        }
      }),
    );
  });
});

describe('groupDoorClients (stories)', () => {
  it('makes one client of a chat that opens a session per call, with the probes and discovery around them', () => {
    const chatgpt = { 'user-agent': 'openai-mcp/1.0.0' };
    const as = { requestHeaders: chatgpt, userAgent: 'openai-mcp/1.0.0' };
    const records = [
      door({ ...as, path: '/.well-known/oauth-protected-resource/mcp' }),
      door({ ...as, method: 'POST', path: '/mcp', status: 400 }), // server/discover, no session
      door({ ...as, method: 'POST', path: '/mcp', mcpSessionId: 'A' }),
      door({ ...as, method: 'POST', path: '/mcp', mcpSessionId: 'A' }),
      door({ ...as, method: 'POST', path: '/mcp', status: 400 }),
      door({ ...as, method: 'POST', path: '/mcp', mcpSessionId: 'B' }),
      door({ ...as, method: 'POST', path: '/mcp', mcpSessionId: 'C' }), // another chat at once
    ];
    const chat = new Map([[2, 'c1'], [3, 'c1'], [4, 'c1'], [5, 'c1'], [6, 'c1'], [7, 'c9']]);
    const clients = groupDoorClients(records, { conversationOf: (r) => chat.get(r.id) });
    expect(ids(clients)).toEqual([
      { key: 'conversation:c1', records: [1, 2, 3, 4, 5, 6] },
      { key: 'conversation:c9', records: [7] },
    ]);
    expect(clients[0]!.sessionIds).toEqual(['A', 'B']);
    expect(clients[0]!.joinedBy).toEqual(['mcp-session', 'conversation', 'identity-and-time']);
    // Without the conversations: a client per session, the probes with the session they came before.
    expect(groupDoorClients(records).map((c) => c.key)).toEqual(['session:A', 'session:B', 'session:C']);
  });

  it('puts discovery after a refused first request into that request\'s conversation, with no session at all', () => {
    // The deriver placed the 401'd initialize (a session-less exchange) in a conversation; the
    // metadata lookups that follow carry no MCP traffic and join it by identity and time.
    const records = [
      door({ method: 'POST', path: '/mcp', status: 401 }),
      door({ path: '/.well-known/oauth-protected-resource/mcp' }),
      door({ path: '/.well-known/oauth-authorization-server' }),
    ];
    const clients = groupDoorClients(records, { conversationOf: (r) => (r.id === 1 ? 'c4' : undefined) });
    expect(ids(clients)).toEqual([{ key: 'conversation:c4', records: [1, 2, 3] }]);
    expect(clients[0]!.joinedBy).toEqual(['conversation', 'identity-and-time']);
  });

  it('puts OAuth discovery before a session into that session\'s client', () => {
    const records = [
      door({ method: 'POST', path: '/mcp', status: 401 }),
      door({ path: '/.well-known/oauth-protected-resource/mcp' }),
      door({ method: 'POST', path: '/token' }),
      door({ method: 'POST', path: '/mcp', mcpSessionId: 'abc' }),
      door({ method: 'POST', path: '/mcp', mcpSessionId: 'abc' }),
    ];
    const clients = groupDoorClients(records);
    expect(ids(clients)).toEqual([{ key: 'session:abc', records: [1, 2, 3, 4, 5] }]);
    expect(clients[0]!.joinedBy).toEqual(['mcp-session', 'identity-and-time']);
  });

  it('keeps two clients with different user agents apart, even interleaved', () => {
    const a = { 'user-agent': 'openai-mcp/1.0.0' };
    const b = { 'user-agent': 'Claude-User' };
    const records = [
      door({ requestHeaders: a, userAgent: 'openai-mcp/1.0.0', path: '/.well-known/oauth-protected-resource' }),
      door({ requestHeaders: b, userAgent: 'Claude-User', path: '/.well-known/oauth-protected-resource' }),
      door({ requestHeaders: a, userAgent: 'openai-mcp/1.0.0', method: 'POST', path: '/mcp', mcpSessionId: 'A' }),
      door({ requestHeaders: b, userAgent: 'Claude-User', method: 'POST', path: '/mcp', mcpSessionId: 'B' }),
    ];
    expect(ids(groupDoorClients(records))).toEqual([
      { key: 'session:A', records: [1, 3] },
      { key: 'session:B', records: [2, 4] },
    ]);
  });

  it('starts a new client when the same identity comes back after a long pause', () => {
    const records = [door({ ts: 0, path: '/favicon.ico' }), door({ ts: CLIENT_GAP_MS + 10_000, path: '/favicon.ico' })];
    expect(groupDoorClients(records).map((c) => c.key)).toEqual(['door:1', 'door:2']);
  });

  it('ignores the address of tunnelled requests (hosts call from pools of addresses)', () => {
    const records = [
      door({ requestHeaders: { 'x-forwarded-for': '203.0.113.1' }, peer: { address: '127.0.0.1', connection: 1 } }),
      door({ requestHeaders: { 'x-forwarded-for': '203.0.113.99' }, peer: { address: '127.0.0.1', connection: 2 } }),
    ];
    expect(groupDoorClients(records)).toHaveLength(1);
    expect(groupDoorClients(records)[0]!.address).toBe('203.0.113.1');
  });
});
