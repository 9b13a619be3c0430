import { describe, expect, it } from 'vitest';
import type { ExchangeDetail, ExchangeSummary } from '@mcpscope/protocol';
import { compareRerun, failedCalls, RERUN_LIMIT } from './rerun-plan.js';

function ex(id: string, patch: Partial<ExchangeSummary> = {}): ExchangeSummary {
  return { id, sessionKey: 's', requester: 'client', kind: 'request', method: 'tools/call', status: 'ok', startTs: 0, frameSeqs: [Number(id)], size: 0, diagnostics: 0, updatedSeq: 0, requestSeq: Number(id), ...patch };
}

function detail(id: string, status: ExchangeSummary['status'], answer: object | undefined): ExchangeDetail {
  const seq = Number(id);
  const frames = [{ seq, ts: 0, sessionKey: 's', direction: 'c2s' as const, transport: 'http-json' as const, kind: 'data' as const, raw: '{}', size: 2, bytes: 2, truncated: false }];
  if (answer) frames.push({ ...frames[0]!, seq: seq + 1, direction: 's2c' as never, raw: JSON.stringify({ jsonrpc: '2.0', id: 1, ...answer }) });
  return { exchange: ex(id, { status, ...(answer ? { responseSeq: seq + 1 } : {}) }), frames, diagnostics: [] };
}

describe('which calls "Re-run failed calls" takes', () => {
  it('failed client requests, not initialize, not replays, not server requests or notifications', () => {
    const all = [
      ex('1', { method: 'initialize', status: 'protocol_error' }),
      ex('2', { status: 'business_error' }),
      ex('3', { status: 'ok' }),
      ex('4', { status: 'protocol_error', replayOf: '2' }),
      ex('5', { status: 'transport_error' }),
      ex('6', { requester: 'server', method: 'sampling/createMessage', status: 'protocol_error' }),
      ex('7', { kind: 'notification', requester: 'none', status: 'ok' }),
      ex('8', { status: 'protocol_error' }),
      ex('9', { status: 'pending' }),
    ];
    const byId = new Map(all.map((e) => [e.id, e]));
    expect(failedCalls(all.map((e) => e.id), (id) => byId.get(id))).toEqual({ ids: ['2', '5', '8'], total: 3 });
  });

  it('leaves out a request the server redirected that the client sent again, not one it did not', () => {
    const all = [
      ex('10', { rpcId: 1, status: 'transport_error', transportEvent: 'redirected' }), // sent again as 11: half of that call
      ex('11', { rpcId: 1, status: 'business_error' }),
      ex('12', { rpcId: 2, status: 'transport_error', transportEvent: 'redirected' }), // never sent again: the call failed
      ex('13', { rpcId: 3, status: 'transport_error', transportEvent: 'upstream-error' }),
      ex('14', { rpcId: 3, status: 'ok' }), // a retry after an upstream error is a call of its own
    ];
    const byId = new Map(all.map((e) => [e.id, e]));
    // The timeline lists the newest first.
    expect(failedCalls(all.map((e) => e.id).reverse(), (id) => byId.get(id))).toEqual({ ids: ['13', '12', '11'], total: 3 });
  });

  it('stops at the limit and says how many there were', () => {
    const ids = Array.from({ length: RERUN_LIMIT + 5 }, (_, i) => String(i + 1));
    const r = failedCalls(ids, (id) => ex(id, { status: 'protocol_error' }));
    expect(r.ids).toHaveLength(RERUN_LIMIT);
    expect(r.total).toBe(RERUN_LIMIT + 5);
  });
});

describe('a re-run beside its original', () => {
  it('fixed when the error became a result, still failing when it did not', () => {
    const failed = detail('2', 'business_error', { result: { content: [{ type: 'text', text: 'no weather' }], isError: true } });
    expect(compareRerun(failed, detail('20', 'ok', { result: { content: [{ type: 'text', text: 'sunny' }] } }))?.verdict).toBe('fixed');
    expect(compareRerun(failed, detail('21', 'business_error', { result: { content: [{ type: 'text', text: 'no weather' }], isError: true } }))).toMatchObject({ verdict: 'failing', difference: { kind: 'status', before: 'business_error', after: 'business_error' } });
    expect(compareRerun(failed, detail('22', 'transport_error', undefined))?.verdict).toBe('failing');
  });

  it('says nothing for a replay still pending', () => {
    expect(compareRerun(detail('2', 'protocol_error', { error: { code: -1, message: 'x' } }), detail('23', 'pending', undefined))).toBeUndefined();
  });
});
