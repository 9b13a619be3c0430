// Pairing by carrier: each POST carries its own replies. A reused id while in flight, a batch with
// a duplicate id, a JSON answer that leaves a request out: each reply goes to the request its
// HTTP exchange carried, and a request whose carrier ended without its reply is never answered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureDeriver, ExchangeTracker, transportFrameText, type ExchangeSummary, type Frame } from '../src/index.js';

interface Post {
  /** The HTTP exchange (connectionId) that carries the request and its reply. */
  conn: string;
  id: number;
  /** What the reply says, so a test can tell whose reply a row got. */
  answer: string;
  transport: 'http-json' | 'sse';
}

function framesOf(order: { post: Post; part: 'request' | 'reply' }[]): Frame[] {
  return order.map(({ post, part }, i) => ({
    seq: i + 1,
    ts: i + 1,
    sessionKey: 's1',
    direction: part === 'request' ? 'c2s' : 's2c',
    transport: part === 'request' ? 'http-json' : post.transport,
    kind: 'data',
    raw: JSON.stringify(
      part === 'request'
        ? { jsonrpc: '2.0', id: post.id, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { for: post.conn } } }
        : { jsonrpc: '2.0', id: post.id, result: { content: [{ type: 'text', text: post.answer }] } },
    ),
    http: { method: 'POST', path: '/mcp', connectionId: post.conn, ...(part === 'reply' ? { status: 200 } : {}) },
  }));
}

function rowsOf(frames: Frame[], tracker = new ExchangeTracker()): ExchangeSummary[] {
  const rows = new Map<string, ExchangeSummary>();
  for (const f of frames) for (const ex of tracker.ingest(f)) rows.set(ex.id, ex);
  return [...rows.values()];
}

const replyText = (frames: Frame[], ex: ExchangeSummary) => {
  const reply = frames.find((f) => f.seq === ex.responseSeq);
  return reply ? (JSON.parse(reply.raw) as { result: { content: { text: string }[] } }).result.content[0]!.text : undefined;
};

describe('pairing by carrier', () => {
  it('two POSTs in flight with id 7: each gets its own reply, whichever comes first', () => {
    const a: Post = { conn: 'post-a', id: 7, answer: 'for a', transport: 'sse' };
    const b: Post = { conn: 'post-b', id: 7, answer: 'for b', transport: 'sse' };
    const frames = framesOf([
      { post: a, part: 'request' },
      { post: b, part: 'request' },
      { post: b, part: 'reply' },
      { post: a, part: 'reply' },
    ]);
    const rows = rowsOf(frames);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.status).toBe('ok');
    const [first, second] = rows.sort((x, y) => x.startTs - y.startTs);
    expect(replyText(frames, first!)).toBe('for a');
    expect(replyText(frames, second!)).toBe('for b');
  });

  it('a JSON answer that leaves out a request of its batch closes that request as never answered, naming the POST', () => {
    const t = new ExchangeTracker();
    const http = { method: 'POST', path: '/mcp', connectionId: 'batch-1' };
    const batch: Frame = { seq: 1, ts: 1, sessionKey: 's1', direction: 'c2s', transport: 'http-json', kind: 'data', http, raw: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, method: 'prompts/list' }]) };
    const answer: Frame = { seq: 2, ts: 5, sessionKey: 's1', direction: 's2c', transport: 'http-json', kind: 'data', http: { ...http, status: 200 }, raw: JSON.stringify([{ jsonrpc: '2.0', id: 1, result: { tools: [] } }]) };
    const rows = rowsOf([batch, answer], t);
    expect(rows.find((r) => r.method === 'tools/list')).toMatchObject({ status: 'ok' });
    const missing = rows.find((r) => r.method === 'prompts/list')!;
    expect(missing).toMatchObject({ status: 'transport_error', transportEvent: 'unanswered', endTs: 5 });
    expect(missing.errorMessage).toContain('Never answered');
    expect(missing.errorMessage).toContain('id 2');
    expect(t.pendingCount).toBe(0);
  });

  it('an SSE stream that has sent one reply is not taken as ended: its other requests keep waiting', () => {
    const a: Post = { conn: 'post-a', id: 1, answer: 'one', transport: 'sse' };
    const frames = framesOf([{ post: a, part: 'request' }, { post: { ...a, id: 2 }, part: 'request' }, { post: a, part: 'reply' }]);
    const rows = rowsOf(frames);
    expect(rows.find((r) => r.rpcId === 2)).toMatchObject({ status: 'pending' });
  });

  it('a stream-ended record closes what its POST carried and left unanswered; with nothing waiting it makes no row', () => {
    const http = { method: 'POST', path: '/mcp', connectionId: 'sse-1' };
    const t = new ExchangeTracker();
    const ended = (seq: number): Frame => ({ seq, ts: seq, sessionKey: 's1', direction: 's2c', transport: 'sse', kind: 'transport', raw: transportFrameText('stream-ended', 'the server ended the event stream after 0 of the 1 replies the POST asked for'), http: { ...http, status: 200 } });
    const call: Frame = { seq: 1, ts: 1, sessionKey: 's1', direction: 'c2s', transport: 'http-json', kind: 'data', http, raw: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x' } }) };
    const rows = rowsOf([call, ended(2)], t);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'transport_error', transportEvent: 'unanswered' });
    expect(rows[0]!.errorMessage).toContain('ended the event stream');
    expect(t.ingest(ended(3))).toEqual([]);
  });

  it('flags an id used twice inside one batch', () => {
    const d = new CaptureDeriver();
    const out = d.ingest({ seq: 1, ts: 1, sessionKey: 's1', direction: 'c2s', transport: 'http-json', kind: 'data', http: { method: 'POST', path: '/mcp', connectionId: 'c' }, raw: JSON.stringify([{ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { jsonrpc: '2.0', id: 3, method: 'prompts/list' }]) });
    expect(out.diagnostics.filter((x) => x.code === 'id-reused-in-flight').map((x) => x.path)).toEqual(['$[1].id']);
  });

  it('any interleaving of POSTs that reuse ids pairs every reply with the request its POST carried, and JSON answers end their POST', () => {
    const post = fc.record({ id: fc.integer({ min: 1, max: 3 }), json: fc.boolean(), answered: fc.boolean() });
    fc.assert(
      fc.property(fc.array(post, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 12, maxLength: 12 }), (specs, shuffle) => {
        const posts: (Post & { answered: boolean })[] = specs.map((s, i) => ({ conn: `post-${i}`, id: s.id, answer: `for post-${i}`, transport: s.json ? 'http-json' : 'sse', answered: s.answered || !s.json }));
        // Each POST's request goes before its reply; otherwise any order.
        const queue = posts.map((p) => [{ post: p, part: 'request' as const }, ...(p.answered ? [{ post: p, part: 'reply' as const }] : [])]);
        const order: { post: Post; part: 'request' | 'reply' }[] = [];
        let k = 0;
        while (queue.some((q) => q.length > 0)) {
          const live = queue.filter((q) => q.length > 0);
          order.push(live[(shuffle[k++ % shuffle.length] ?? 0) % live.length]!.shift()!);
        }
        const frames = framesOf(order);
        const rows = rowsOf(frames);
        expect(rows).toHaveLength(posts.length);
        for (const row of rows) {
          const request = frames.find((f) => f.seq === row.requestSeq)!;
          const p = posts.find((x) => x.conn === request.http!.connectionId)!;
          if (p.answered) {
            expect(row.status).toBe('ok');
            expect(replyText(frames, row)).toBe(p.answer);
          } else {
            expect(row.status).toBe('pending');
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
