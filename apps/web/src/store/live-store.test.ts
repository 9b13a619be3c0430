import { describe, expect, it } from 'vitest';
import type { ExchangeSummary, SessionSummary } from '@mcpscope/protocol';
import { buildViewFilter } from '../filter/filter-lang.js';
import { createLiveStore } from './live-store.js';

const ex = (id: string, sessionKey: string): ExchangeSummary => ({
  id, sessionKey, requester: 'client', kind: 'request', method: 'tools/call', status: 'ok', startTs: 0, frameSeqs: [Number(id)], size: 1, diagnostics: 0, updatedSeq: Number(id),
});
const session = (sessionKey: string, clientLabel?: string): SessionSummary => ({ sessionKey, transport: 'http-json', firstTs: 0, lastTs: 0, counts: {}, ...(clientLabel ? { clientLabel } : {}) });

describe('the live store with a session-dependent filter', () => {
  it('matches rows against sessions that arrive in the same batch (a client: filter from a link)', () => {
    const store = createLiveStore((run) => run());
    const { predicate } = buildViewFilter('client:agent-b', undefined, (key) => store.getState().sessions.get(key));
    store.getState().setPredicate(predicate);
    store.queueDelta({ head: 2, exchanges: [ex('1', 'a'), ex('2', 'b')], sessions: [session('a', 'agent-a'), session('b', 'agent-b')] });
    expect(store.getState().view.ids).toEqual(['2']);
  });

  it('matches a session\'s rows again once it learns its client', () => {
    const store = createLiveStore((run) => run());
    const { predicate } = buildViewFilter('client:agent-b', undefined, (key) => store.getState().sessions.get(key));
    store.getState().setPredicate(predicate);
    store.queueDelta({ head: 1, exchanges: [ex('1', 'b')], sessions: [session('b')] });
    expect(store.getState().view.ids).toEqual([]);
    store.queueDelta({ sessions: [session('b', 'agent-b')] });
    expect(store.getState().view.ids).toEqual(['1']);
  });
});

describe('rows that arrive in the view', () => {
  it('counts captured rows that match, not rows a cleared filter brings back', () => {
    const store = createLiveStore((run) => run());
    const { predicate } = buildViewFilter('session:b', undefined, (key) => store.getState().sessions.get(key));
    store.getState().setPredicate(predicate);
    store.queueDelta({ head: 3, exchanges: [ex('1', 'a'), ex('2', 'a'), ex('3', 'b')], sessions: [session('a'), session('b')] });
    const view = store.getState().view;
    expect(view.arrived).toBe(1);
    store.getState().setPredicate(buildViewFilter('', undefined, () => undefined).predicate);
    expect(view.ids).toEqual(['1', '2', '3']);
    expect(view.arrived).toBe(1);
    store.queueDelta({ head: 4, exchanges: [ex('4', 'a')] });
    expect(view.arrived).toBe(2);
  });
});
