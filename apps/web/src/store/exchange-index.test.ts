import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '@mcpscope/protocol';
import { ExchangeIndex, orderKey } from './exchange-index.js';
import { matchAll, ViewIndex } from './view-index.js';
import { appendFrames, createLiveStore } from './live-store.js';

const ex = (id: string, updatedSeq: number, status: ExchangeSummary['status'] = 'pending'): ExchangeSummary => ({
  id, sessionKey: 's', requester: 'client', kind: 'request', status, startTs: 0, frameSeqs: [], size: 0, diagnostics: 0, updatedSeq,
});

const build = (updates: ExchangeSummary[]) => {
  const idx = new ExchangeIndex();
  idx.apply(updates);
  return idx;
};

describe('exchange index', () => {
  it('keeps capture order, batch items after their frame', () => {
    const idx = build([ex('10', 10), ex('2', 2), ex('10.1', 10), ex('10.0', 10)]);
    expect(idx.ids).toEqual(['2', '10', '10.0', '10.1']);
    expect(orderKey('7.2')).toBeGreaterThan(orderKey('7.1'));
  });

  it('ignores stale copies, so an overlapping snapshot and catch-up do no harm', () => {
    const idx = build([ex('1', 5, 'ok')]);
    const change = idx.apply([ex('1', 1, 'pending'), ex('1', 5, 'ok')]);
    expect(change).toEqual({ added: [], updated: [] });
    expect(idx.get('1')!.status).toBe('ok');
  });

  it('ends in the same state whatever order and duplication the updates arrive in', () => {
    const updates = [ex('1', 1), ex('2', 2), ex('1', 3, 'ok'), ex('3', 4), ex('2', 5, 'protocol_error'), ex('3.0', 4)];
    const expected = build(updates);
    fc.assert(
      fc.property(fc.shuffledSubarray(updates.concat(updates), { minLength: updates.length * 2 }), fc.integer({ min: 1, max: 12 }), (shuffled, chunk) => {
        const idx = new ExchangeIndex();
        for (let i = 0; i < shuffled.length; i += chunk) idx.apply(shuffled.slice(i, i + chunk));
        expect(idx.ids).toEqual(expected.ids);
        expect(idx.ids.map((id) => idx.get(id)!.status)).toEqual(expected.ids.map((id) => expected.get(id)!.status));
      }),
    );
  });
});

describe('replays of an exchange', () => {
  const replay = (id: string, updatedSeq: number, of: string): ExchangeSummary => ({ ...ex(id, updatedSeq, 'ok'), replayOf: of });

  it('lists every replay of an original once, in capture order, however the updates arrive', () => {
    const updates = [ex('1', 1, 'protocol_error'), replay('9', 9, '1'), replay('4', 4, '1'), replay('4', 5, '1'), replay('12', 12, '9'), ex('5', 5)];
    fc.assert(
      fc.property(fc.shuffledSubarray(updates.concat(updates), { minLength: updates.length * 2 }), (shuffled) => {
        const idx = build(shuffled);
        expect(idx.replaysOf('1')).toEqual(['4', '9']);
        expect(idx.replaysOf('9')).toEqual(['12']);
        expect(idx.replaysOf('5')).toEqual([]);
      }),
    );
  });
});

describe('filtered view', () => {
  it('stays equal to a full rebuild however the updates are batched', () => {
    const statuses: ExchangeSummary['status'][] = ['pending', 'ok', 'protocol_error', 'business_error'];
    const update = fc.record({ id: fc.integer({ min: 1, max: 40 }), status: fc.constantFrom(...statuses) });
    fc.assert(
      fc.property(fc.array(fc.array(update, { maxLength: 8 }), { maxLength: 12 }), (batches) => {
        const predicate = (e: ExchangeSummary) => e.status !== 'ok';
        const idx = new ExchangeIndex();
        const view = new ViewIndex(predicate);
        let seq = 0;
        for (const batch of batches) view.applyChange(idx.apply(batch.map((u) => ex(String(u.id), ++seq, u.status))));
        const fresh = new ViewIndex();
        fresh.rebuild(idx, predicate);
        expect(view.ids).toEqual(fresh.ids);
        for (const [i, id] of fresh.ids.entries()) expect(view.indexOf(id)).toBe(i);
      }),
    );
  });
});

describe('live store', () => {
  it('applies queued deltas together, once per scheduled flush', () => {
    const runs: (() => void)[] = [];
    const store = createLiveStore((run) => runs.push(run));
    store.queueDelta({ head: 1, exchanges: [ex('1', 1)] });
    store.queueDelta({ head: 2, exchanges: [ex('1', 2, 'ok'), ex('2', 2)] });
    expect(runs).toHaveLength(1);
    expect(store.getState().index.size).toBe(0);
    runs[0]!();
    const state = store.getState();
    expect(state.index.ids).toEqual(['1', '2']);
    expect(state.index.get('1')!.status).toBe('ok');
    expect(state.head).toBe(2);
    expect(state.loaded).toBe(true);
    state.setPredicate((e) => e.status === 'pending');
    expect(store.getState().view.ids).toEqual(['2']);
  });

  it('keeps frames in seq order without duplicates when API pages and live frames overlap', () => {
    const frame = (seq: number) => ({ seq, ts: seq, sessionKey: 's', direction: 'c2s' as const, transport: 'http-json' as const, kind: 'data' as const, raw: '{}', size: 2, bytes: 2, truncated: false });
    const frames = [frame(5), frame(6)];
    appendFrames(frames, [frame(1), frame(2), frame(5), frame(3)]);
    appendFrames(frames, [frame(6), frame(7)]);
    expect(frames.map((f) => f.seq)).toEqual([1, 2, 3, 5, 6, 7]);
  });
});

describe('a view of a large capture', () => {
  it('clears its filter at 200,000 exchanges without overflowing the stack, and keeps the index its own', () => {
    const idx = build(Array.from({ length: 200_000 }, (_, i) => ex(String(i + 1), i + 1, i % 2 ? 'ok' : 'protocol_error')));
    const view = new ViewIndex((e) => e.status === 'ok');
    view.rebuild(idx);
    expect(view.size).toBe(100_000);
    view.rebuild(idx, matchAll);
    expect(view.size).toBe(200_000);
    expect(view.ids).not.toBe(idx.ids);
    expect(view.ids.at(-1)).toBe('200000');
  });
});
