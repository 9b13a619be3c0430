import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '@mcpscope/protocol';
import { applyExchanges, emptyIndex, orderKey } from './exchange-index.js';

const ex = (id: string, updatedSeq: number, status: ExchangeSummary['status'] = 'pending'): ExchangeSummary => ({
  id, sessionKey: 's', requester: 'client', kind: 'request', status, startTs: 0, frameSeqs: [], size: 0, diagnostics: 0, updatedSeq,
});

describe('exchange index', () => {
  it('keeps capture order, batch items after their frame', () => {
    const idx = applyExchanges(emptyIndex(), [ex('10', 10), ex('2', 2), ex('10.1', 10), ex('10.0', 10)]);
    expect(idx.ids).toEqual(['2', '10', '10.0', '10.1']);
  });

  it('ignores stale copies, so an overlapping snapshot and catch-up do no harm', () => {
    let idx = applyExchanges(emptyIndex(), [ex('1', 5, 'ok')]);
    idx = applyExchanges(idx, [ex('1', 1, 'pending')]);
    expect(idx.byId.get('1')!.status).toBe('ok');
  });

  it('ends in the same state whatever order and duplication the updates arrive in', () => {
    const updates = [ex('1', 1), ex('2', 2), ex('1', 3, 'ok'), ex('3', 4), ex('2', 5, 'protocol_error')];
    const expected = applyExchanges(emptyIndex(), updates);
    fc.assert(
      fc.property(fc.shuffledSubarray(updates.concat(updates), { minLength: updates.length * 2 }), (shuffled) => {
        const idx = applyExchanges(emptyIndex(), shuffled);
        expect(idx.ids).toEqual(expected.ids);
        expect(idx.ids.map((id) => idx.byId.get(id)!.status)).toEqual(expected.ids.map((id) => expected.byId.get(id)!.status));
      }),
    );
    expect(orderKey('7.2')).toBeGreaterThan(orderKey('7.1'));
  });
});
