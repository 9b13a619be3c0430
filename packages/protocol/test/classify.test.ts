import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, classifyText, idKey } from '../src/index.js';

describe('classifyText', () => {
  it('keeps the JSON type of ids: 0 is valid, 1 and "1" differ', () => {
    expect(classifyText('{"jsonrpc":"2.0","id":0,"method":"ping"}')).toEqual({ kind: 'request', id: 0, method: 'ping' });
    expect(idKey(1)).not.toBe(idKey('1'));
  });

  it('tells requests, notifications, results, errors and batches apart', () => {
    expect(classifyText('{"jsonrpc":"2.0","method":"notifications/initialized"}').kind).toBe('notification');
    expect(classifyText('{"jsonrpc":"2.0","id":"a","result":{}}').kind).toBe('response');
    expect(classifyText('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')).toMatchObject({ kind: 'error', id: null });
    expect(classifyText('[{"jsonrpc":"2.0","id":1,"method":"ping"}]').kind).toBe('batch');
  });

  it('explains what is wrong with invalid messages', () => {
    expect(classifyText('not json')).toMatchObject({ kind: 'invalid' });
    expect(classifyText('{"jsonrpc":"2.0","id":null,"method":"ping"}')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('never null') });
    expect(classifyText('{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('never both') });
  });

  it('is total: any text yields a classification and never throws', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
      expect(typeof classifyText(text).kind).toBe('string');
    }));
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(typeof classifyText(JSON.stringify(value)).kind).toBe('string');
    }));
  });
});

describe('messages deeper than the call stack (issue 22, item 3)', () => {
  it('classifies a message nested deeper than MAX_JSON_DEPTH as invalid without reading it, and one at the limit as usual', () => {
    const nest = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const deep = classifyText(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":${nest(10_000)}}}`);
    expect(deep).toEqual({ kind: 'invalid', reason: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`) });
    // The message itself is 1 level, params 2, capabilities 3: this stays within the limit.
    const fits = classifyText(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":${nest(MAX_JSON_DEPTH - 3)}}}`);
    expect(fits.kind).toBe('request');
  });
});
