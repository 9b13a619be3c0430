import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { followedRedirects, type ExchangeSummary } from '../src/index.js';

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
