import { describe, expect, it } from 'vitest';
import { cutEnvelope } from '../src/model/cut-envelope.js';

const head = (text: string) => text.slice(0, text.length - 10);

describe('cutEnvelope', () => {
  it('reads the id and the member of a cut result or error', () => {
    expect(cutEnvelope(head(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"${'x'.repeat(100)}"}]}}`))).toEqual({ id: 7, member: 'result' });
    expect(cutEnvelope(head(`{ "id" : "a\\"b", "jsonrpc" : "2.0", "error" : {"code":-32000,"message":"${'x'.repeat(100)}"}}`))).toEqual({ id: 'a"b', member: 'error' });
    expect(cutEnvelope(head(`{"jsonrpc":"2.0","result":{"text":"${'x'.repeat(100)}"},"id":3}`))).toEqual({ member: 'result' });
  });

  it('reads nothing from a head that is not a JSON-RPC answer', () => {
    expect(cutEnvelope('<html><body>' + 'x'.repeat(100))).toBeUndefined();
    expect(cutEnvelope(`{"result":{"text":"${'x'.repeat(100)}`)).toBeUndefined();
    expect(cutEnvelope(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":"${'x'.repeat(100)}`)).toBeUndefined();
    expect(cutEnvelope(`[{"jsonrpc":"2.0","id":1,"result":{}}`)).toBeUndefined();
    expect(cutEnvelope(`{"jsonrpc":"2.0","id":1`)).toBeUndefined();
  });
});
