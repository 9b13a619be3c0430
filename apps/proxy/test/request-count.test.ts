// What the tap counts to tell a POST's event stream that ended short of replies: the requests a
// body carries and the SSE events that read as replies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksLikeReply, requestsIn } from '../src/tap/http/request-count.js';

const request = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), method: fc.string({ minLength: 1 }), params: fc.dictionary(fc.string(), fc.jsonValue()) });
const notification = fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string({ minLength: 1 }) });
const reply = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), result: fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() })) }) });

describe('requestsIn', () => {
  it('counts the requests of any batch exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(request.map((m) => ({ m, r: true })), notification.map((m) => ({ m, r: false })), reply.map((m) => ({ m, r: false }))), { minLength: 1 }), (items) => {
        expect(requestsIn(JSON.stringify(items.map((i) => i.m)))).toBe(items.filter((i) => i.r).length);
      }),
    );
  });

  it('counts a single request as one, a reply or a notification without an id as none, and knows nothing of junk or no body', () => {
    expect(requestsIn('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}')).toBe(1);
    expect(requestsIn('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBe(0);
    expect(requestsIn('{"jsonrpc":"2.0","id":1,"result":{}}')).toBe(0);
    expect(requestsIn('[{"jsonrpc":')).toBeUndefined();
    expect(requestsIn(undefined)).toBeUndefined();
  });
});

describe('looksLikeReply', () => {
  it('reads any reply as one, and a request or a notification as none', () => {
    fc.assert(fc.property(reply, (m) => {
      expect(looksLikeReply(JSON.stringify(m))).toBe(true);
    }));
    fc.assert(fc.property(request, (m) => {
      expect(looksLikeReply(JSON.stringify(m))).toBe(false);
    }));
    expect(looksLikeReply('{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"x"}}')).toBe(true);
    expect(looksLikeReply('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}')).toBe(false);
  });
});
