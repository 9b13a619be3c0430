// Which filters a summary answers alone: for those, what the capture adds (bodies, diagnostic
// codes) never changes the verdict, so the dashboard may decide them without asking the API.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerableFromSummary, matchesExchange, parseFilter, type ExchangeSummary, type Filter } from '../../src/index.js';
import { filterArb } from '../support/filter-arb.js';

const row: ExchangeSummary = {
  id: '4',
  sessionKey: 'sess-1',
  requester: 'client',
  direction: 'c2s',
  kind: 'request',
  method: 'tools/call',
  target: 'get_weather',
  rpcId: 1,
  status: 'ok',
  startTs: 0,
  endTs: 10,
  latencyMs: 10,
  frameSeqs: [3, 4],
  size: 300,
  diagnostics: 1,
  updatedSeq: 4,
};

const parsed = (text: string): Filter | null => {
  const r = parseFilter(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.filter;
};

describe('answerableFromSummary', () => {
  it('sends free text and diag:CODE to the capture, anywhere in the tree', () => {
    expect(answerableFromSummary(parsed('concurrent'))).toBe(false);
    expect(answerableFromSummary(parsed('tool:x | !"hello from"'))).toBe(false);
    expect(answerableFromSummary(parsed('status:err diag:phantom-tool'))).toBe(false);
  });

  it('keeps summary fields in the browser', () => {
    expect(answerableFromSummary(null)).toBe(true);
    expect(answerableFromSummary(parsed('method:tools/call status:err latency>5 has:diag !client:a'))).toBe(true);
  });

  it('an answerable filter gives the same verdict whatever bodies and codes say', () => {
    const bodies = fc.oneof(fc.constant(''), fc.string(), fc.constantFrom('get_weather', 'tools', 'x'));
    const codes = fc.array(fc.string({ minLength: 1 }), { maxLength: 3 });
    fc.assert(
      fc.property(filterArb, bodies, codes, (filter, body, diagnosticCodes) => {
        fc.pre(answerableFromSummary(filter));
        expect(matchesExchange(filter, row, { bodyText: () => body, diagnosticCodes })).toBe(matchesExchange(filter, row));
      }),
      { numRuns: 500 },
    );
  });
});
