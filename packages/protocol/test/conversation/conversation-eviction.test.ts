// The deriver keeps a bounded number of conversations and lets the oldest go; none is lost by it.
// Whatever the take points (a capture writes once per batch of frames, any number of frames long),
// every conversation derived is handed out, once per take, its last version last: what the takes
// add up to equals taking after every frame, and every conversation key a session or an exchange
// names is handed out by the take that ends its frame's batch. Small bounds make eviction happen
// on nearly every frame (of conversations, and of the book's session records).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, type CaptureDeriverDeps, type ConversationSummary, type Frame, type SessionSummary } from '../../src/index.js';
import { chatgptCall, interleave, numbered, sdkSession, type Step } from '../support/hosts.js';

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A 2026-07-28 call without a session (the tap's made-up `client:` key), naming a host conversation or not. */
function sessionlessCall(client: string, id: number, hostId: string | undefined): Step[] {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: client, version: '1' }, ...(hostId ? { 'openai/session': hostId } : {}) };
  const http = { method: 'POST', path: '/mcp', connectionId: `${client}-${id}` };
  const sessionKey = `client:${client}`;
  return [
    { sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: meta } }), http },
    { sessionKey, direction: 's2c', transport: 'http-json', kind: 'data', raw: JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }), http: { ...http, status: 200 } },
  ];
}

const hostId = fc.option(fc.constantFrom('conv-1', 'conv-2', 'conv-3'), { nil: undefined });
/** One host's script: a ChatGPT call in a session of its own, an SDK client's long session, or session-less calls. */
const script = fc.oneof(
  fc.record({ hostId, credential: fc.option(fc.constantFrom('fp-1', 'fp-2'), { nil: undefined }), probe: fc.boolean() }).map((o) => (n: number) => chatgptCall(`chat-${n}`, { ...(o.hostId ? { hostId: o.hostId } : {}), ...(o.credential ? { credential: o.credential } : {}), probe: o.probe })),
  fc.integer({ min: 0, max: 2 }).map((calls) => (n: number) => sdkSession(`sdk-${n}`, `agent-${n}`, calls)),
  fc.array(hostId, { minLength: 1, maxLength: 3 }).map((ids) => (n: number) => ids.flatMap((h, i) => sessionlessCall(`bot-${n % 2}`, n * 10 + i, h))),
);

const world = fc.record({
  scripts: fc.array(script, { minLength: 1, maxLength: 8 }),
  picks: fc.array(fc.nat(7), { maxLength: 80 }),
  // Frames at the same ms, and far apart now and then (a conversation found by client and time ends after ten minutes).
  gaps: fc.array(fc.constantFrom(0, 5, 5, 11 * 60_000), { minLength: 1, maxLength: 8 }),
  bounds: fc.record({ conversations: fc.integer({ min: 1, max: 4 }), sessions: fc.integer({ min: 1, max: 6 }) }),
  takes: fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
  restarts: fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
});

function framesOf(scripts: ((n: number) => Step[])[], picks: number[], gaps: number[]): Frame[] {
  const steps = interleave(scripts.map((s, n) => s(n)), picks);
  let ts = 1_000_000;
  return numbered(steps).map((f, i) => ({ ...f, ts: (ts += gaps[i % gaps.length]!) }));
}

/** Conversations as taken after every frame (each key's versions, in order), and each session's last version. */
function takenEveryFrame(frames: Frame[], deps: CaptureDeriverDeps): { versions: Map<string, ConversationSummary[]>; sessions: Map<string, SessionSummary> } {
  const d = new CaptureDeriver(deps);
  const versions = new Map<string, ConversationSummary[]>();
  const sessions = new Map<string, SessionSummary>();
  for (const f of frames) {
    for (const s of d.ingest(f).sessions) sessions.set(s.sessionKey, json(s));
    for (const c of d.takeConversations()) versions.set(c.key, [...(versions.get(c.key) ?? []), json(c)]);
  }
  return { versions, sessions };
}

describe('conversations the deriver lets go', () => {
  it('are all handed out, once per take, the last version last, whatever the take points and bounds', () => {
    fc.assert(
      fc.property(world, ({ scripts, picks, gaps, bounds, takes, restarts }) => {
        const frames = framesOf(scripts, picks, gaps);
        const deps: CaptureDeriverDeps = { conversationBounds: bounds };
        const reference = takenEveryFrame(frames, deps);

        let d = new CaptureDeriver(deps);
        const stored = new Map<string, ConversationSummary>();
        const sessions = new Map<string, SessionSummary>();
        /** Conversation keys named by sessions and exchanges of the batch not yet taken. */
        let named = new Set<string>();
        const take = () => {
          const taken = d.takeConversations();
          // Once per take.
          expect(new Set(taken.map((c) => c.key)).size).toBe(taken.length);
          for (const c of taken) stored.set(c.key, json(c));
          // The invariant a capture file keeps: every key a row names has its row.
          for (const key of named) expect(stored.has(key), `conversation ${key} named but never handed out`).toBe(true);
          named = new Set();
          // Bounded: a taken deriver keeps at most its bound of conversations, and nothing let go.
          const book = d.snapshot().conversations!.book;
          expect(book.conversations.length).toBeLessThanOrEqual(bounds.conversations);
          expect(book.letGo).toBeUndefined();
        };
        frames.forEach((f, i) => {
          const out = d.ingest(f);
          for (const s of out.sessions) {
            sessions.set(s.sessionKey, json(s));
            if (s.conversationKey !== undefined) named.add(s.conversationKey);
          }
          for (const e of out.exchanges) if (e.conversation !== undefined) named.add(e.conversation);
          if (takes[i % takes.length]) take();
          // Now and then the capture reopens between takes: what waits for the take waits in the snapshot.
          if (restarts[i % restarts.length]) d = CaptureDeriver.restore(json(d.snapshot()), deps);
        });
        take();

        const last = new Map([...reference.versions].map(([key, versions]) => [key, versions[versions.length - 1]!]));
        expect(stored).toEqual(last);
        // Sessions go out with every frame that changes them, whatever the book let go of them.
        expect(sessions).toEqual(reference.sessions);
      }),
      { numRuns: 300 },
    );
  });

  it('a burst of more conversations than the bound, taken once, hands out every one', () => {
    const bounds = { conversations: 8, sessions: 8 };
    const frames = numbered(Array.from({ length: 50 }, (_, n) => sdkSession(`sdk-${n}`, `agent-${n}`, 1)).flat());
    const d = new CaptureDeriver({ conversationBounds: bounds });
    const sessions = new Map<string, string | undefined>();
    for (const f of frames) for (const s of d.ingest(f).sessions) sessions.set(s.sessionKey, s.conversationKey);
    const taken = d.takeConversations();
    expect(taken).toHaveLength(50);
    expect(new Set(sessions.values())).toEqual(new Set(taken.map((c) => c.key)));
    for (const c of taken) expect(c.churn).toMatchObject({ sessions: 1, initialize: 1, toolsCall: 1 });
    expect(d.snapshot().conversations!.book.conversations).toHaveLength(bounds.conversations);
  });
});
