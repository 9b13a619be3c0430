import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { followedRedirects, markRedirectedNotifications, type ExchangeSummary, type Frame } from '../src/index.js';

function request(seq: number, patch: Partial<ExchangeSummary> = {}): ExchangeSummary {
  return { id: String(seq), sessionKey: 's', requester: 'client', kind: 'request', method: 'tools/call', rpcId: 1, status: 'ok', startTs: seq, frameSeqs: [seq], size: 0, diagnostics: 0, updatedSeq: seq, ...patch };
}
const redirected = (seq: number, patch: Partial<ExchangeSummary> = {}) => request(seq, { status: 'transport_error', transportEvent: 'redirected', ...patch });

describe('followedRedirects', () => {
  it('a redirected request the client sent again (same session, method and id) is half of that call', () => {
    expect(followedRedirects([redirected(1), request(3)])).toEqual(new Set(['1']));
  });

  it('keeps a redirect the client did not follow, and one followed by a different request', () => {
    const list = [
      redirected(1),
      redirected(2, { rpcId: 2 }),
      request(3, { rpcId: 3 }), // another id
      redirected(4, { rpcId: 5 }),
      request(5, { rpcId: 5, sessionKey: 'other' }), // another session
      redirected(6, { rpcId: 6 }),
      request(7, { rpcId: 6, method: 'tools/list' }), // another method
      redirected(8, { rpcId: '1' }),
      request(9, { rpcId: 1 }), // 1 and "1" are different ids
    ];
    expect(followedRedirects(list)).toEqual(new Set(['1']));
  });

  it('a chain of redirects leaves the last attempt as the call: answered, or still failing', () => {
    expect(followedRedirects([redirected(1), redirected(2), request(3)])).toEqual(new Set(['1', '2']));
    expect(followedRedirects([redirected(1), redirected(2)])).toEqual(new Set(['1']));
  });

  it('a redirected notification the client sent again is left out once; one not sent again stays', () => {
    const note = (seq: number, patch: Partial<ExchangeSummary> = {}) => request(seq, { kind: 'notification', requester: 'none', direction: 'c2s', method: 'notifications/initialized', rpcId: undefined, ...patch });
    expect(followedRedirects([note(1, { transportEvent: 'redirected' }), note(3)])).toEqual(new Set(['1']));
    expect(followedRedirects([note(1, { transportEvent: 'redirected' }), note(3, { method: 'notifications/roots/list_changed' })])).toEqual(new Set());
    // A server's notification is never the client's message sent again.
    expect(followedRedirects([note(1, { transportEvent: 'redirected' }), note(3, { direction: 's2c' })])).toEqual(new Set());
  });

  it('marks a client notification redirected when the tap\'s redirect row was recorded for the same HTTP request', () => {
    const frame = (seq: number, connectionId: string): Frame => ({ seq, ts: seq, sessionKey: 's', direction: 'c2s', transport: 'http-json', kind: 'data', raw: '{}', http: { method: 'POST', path: '/mcp', connectionId } });
    const frames = new Map([frame(1, 'c1'), frame(2, 'c1'), frame(3, 'c2'), frame(4, 'c3'), frame(5, 'c4')].map((f) => [f.seq, f]));
    const note = (seq: number) => request(seq, { kind: 'notification', requester: 'none', direction: 'c2s', method: 'notifications/initialized', rpcId: undefined });
    const redirectRow = (seq: number) => request(seq, { kind: 'notification', requester: 'none', method: 'transport', rpcId: undefined, status: 'transport_error', transportEvent: 'redirected' });
    const marked = markRedirectedNotifications([note(1), redirectRow(2), note(3), redirectRow(4), note(5)], (seq) => frames.get(seq));
    expect(marked.map((e) => e.method === 'transport' ? 'row' : (e.transportEvent ?? 'sent'))).toEqual(['redirected', 'row', 'sent', 'row', 'sent']);
    expect(followedRedirects(marked)).toEqual(new Set(['1']));
  });

  it('other transport failures are calls of their own, retried or not', () => {
    expect(followedRedirects([request(1, { status: 'transport_error', transportEvent: 'upstream-error' }), request(2)])).toEqual(new Set());
  });

  it('for any capture, in any order: exactly the redirected attempts sent again later, so each call keeps its last attempt', () => {
    const attempt = fc.record({ key: fc.integer({ min: 0, max: 3 }), redirected: fc.boolean(), batchItem: fc.boolean() });
    fc.assert(
      fc.property(fc.array(attempt, { maxLength: 30 }), fc.infiniteStream(fc.nat()), (attempts, shuffle) => {
        const list = attempts.map((a, i) => {
          const patch: Partial<ExchangeSummary> = { rpcId: a.key, id: a.batchItem ? `${i + 1}.1` : String(i + 1) };
          return a.redirected ? redirected(i + 1, patch) : request(i + 1, patch);
        });
        const expected = new Set(list.filter((ex, i) => ex.transportEvent === 'redirected' && list.slice(i + 1).some((later) => later.rpcId === ex.rpcId)).map((ex) => ex.id));
        const shuffled = [...list];
        const it = shuffle[Symbol.iterator]();
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = it.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        expect(followedRedirects(shuffled)).toEqual(expected);
        // No call is lost: every (session, method, id) keeps at least its last attempt.
        const kept = list.filter((ex) => !expected.has(ex.id));
        expect(new Set(kept.map((ex) => ex.rpcId)).size).toBe(new Set(list.map((ex) => ex.rpcId)).size);
      }),
    );
  });
});
