// Grouping door records into clients: the MCP session when there is one, else identity (user
// agent, and the address for direct connections) and time. Properties on random traffic, then the
// stories a user recognises.
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

describe('groupDoorClients (stories)', () => {
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
