import { describe, expect, it } from 'vitest';
import type { ExchangeSummary } from '@mcpscope/protocol';
import { ExchangeIndex } from '../store/exchange-index.js';
import { candidateCalls, candidateRequests } from '../detail/causal-candidates.js';
import { exchangesOfFrame } from './frame-exchange.js';

const ex = (id: string, frameSeqs: number[], more: Partial<ExchangeSummary> = {}): ExchangeSummary => ({
  id, sessionKey: 's', requester: 'client', kind: 'request', status: 'ok', startTs: Number(id), frameSeqs, size: 0, diagnostics: 0, updatedSeq: Math.max(...frameSeqs), ...more,
});

const index = (rows: ExchangeSummary[]) => {
  const idx = new ExchangeIndex();
  idx.apply(rows);
  return idx;
};

describe('a raw frame’s exchange', () => {
  it('is the exchange that opened with it, or the earlier one it answered', () => {
    const idx = index([ex('1', [1, 4]), ex('2', [2, 3]), ex('5', [5])]);
    expect(exchangesOfFrame(idx, 1).map((e) => e.id)).toEqual(['1']);
    expect(exchangesOfFrame(idx, 3).map((e) => e.id)).toEqual(['2']);
    expect(exchangesOfFrame(idx, 4).map((e) => e.id)).toEqual(['1']);
    expect(exchangesOfFrame(idx, 6)).toEqual([]);
  });

  it('is every item of a batch frame', () => {
    const idx = index([ex('7.0', [7, 9]), ex('7.1', [7, 9]), ex('8', [8])]);
    expect(exchangesOfFrame(idx, 9).map((e) => e.id)).toEqual(['7.0', '7.1']);
  });
});

describe('causality candidates', () => {
  const call = (id: string, startTs: number, endTs: number | undefined, sessionKey = 's') => ex(id, [Number(id)], { method: 'tools/call', startTs, ...(endTs === undefined ? { status: 'pending' } : { endTs }), sessionKey });
  const asks = (id: string, startTs: number, method = 'sampling/createMessage', sessionKey = 's') => ex(id, [Number(id)], { method, requester: 'server', startTs, sessionKey });

  it('are the same session’s calls open when a server request was sent, and the requests sent while a call was open', () => {
    const idx = index([call('1', 0, 10), call('2', 1, 100), call('3', 2, undefined, 'other'), asks('4', 20), asks('5', 30, 'roots/list'), asks('6', 40, 'ping'), call('7', 150, 160), asks('8', 170)]);
    expect(candidateCalls(idx, idx.get('4')!).map((e) => e.id)).toEqual(['2']);
    expect(candidateRequests(idx, idx.get('2')!).map((e) => e.id)).toEqual(['4', '5']);
    expect(candidateRequests(idx, idx.get('1')!)).toEqual([]);
    expect(candidateCalls(idx, idx.get('8')!)).toEqual([]);
  });
});
