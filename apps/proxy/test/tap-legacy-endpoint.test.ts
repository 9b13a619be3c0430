// The endpoint rewriter works on raw SSE bytes as they arrive: whatever the chunking, the output
// is the input with only the `endpoint` data changed, and nothing else is ever held back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointRewriter, legacySessionKey, rewriteEndpoint } from '../src/tap/http/legacy-sse.js';

function run(input: Buffer, cuts: number[]): { out: string; endpoints: string[] } {
  const endpoints: string[] = [];
  const rw = new EndpointRewriter((d) => rewriteEndpoint(d, 'http://up:3000', 'https://pub.example/pre'), (d) => endpoints.push(d));
  const parts: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts.sort((a, b) => a - b), input.length]) {
    const piece = rw.push(input.subarray(at, Math.max(at, cut)));
    if (piece) parts.push(piece);
    at = Math.max(at, cut);
  }
  const rest = rw.flush();
  if (rest) parts.push(rest);
  return { out: Buffer.concat(parts).toString('utf8'), endpoints };
}

describe('rewriteEndpoint', () => {
  it.each([
    ['/message?sessionId=a%2Bb', '/pre/message?sessionId=a%2Bb'],
    ['http://up:3000/message?sessionId=x y', 'https://pub.example/pre/message?sessionId=x y'],
    ['HTTP://UP:3000/m?sessionId=1', 'https://pub.example/pre/m?sessionId=1'],
    ['messages?sessionId=1', 'messages?sessionId=1'],
    ['https://elsewhere.example/m?sessionId=1', 'https://elsewhere.example/m?sessionId=1'],
  ])('%s → %s', (data, expected) => {
    expect(rewriteEndpoint(data, 'http://up:3000', 'https://pub.example/pre')).toBe(expected);
  });
});

describe('legacySessionKey', () => {
  it.each([
    // The TypeScript SDK (server-everything on the wire).
    ['?sessionId=6f1c', '/message', '6f1c'],
    // The Python SDK and FastMCP: `data: /messages/?session_id=1bed…` (uvicorn on the wire).
    ['?session_id=1beded10f1764848be4e028989c149e8', '/messages/', '1beded10f1764848be4e028989c149e8'],
    // Neither: the query names the session, without the credentials it carries.
    ['?stream=7&token=tok_SECRET_1234', '/rpc', `?stream=7&token=${encodeURIComponent('[redacted] (15 chars)')}`],
    ['', '/rpc/abc', '/rpc/abc'],
  ])('%s on %s → %s', (search, pathname, key) => {
    expect(legacySessionKey(search, pathname)).toBe(key);
  });
});

describe('EndpointRewriter', () => {
  const stream = ': keepalive\n\nevent: endpoint\ndata: /message?sessionId=é1\n\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n';

  it('gives the same bytes for any chunking', () => {
    const input = Buffer.from(stream);
    const expected = stream.replace('data: /message', 'data: /pre/message');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: input.length }), { maxLength: 12 }), (cuts) => {
        const { out, endpoints } = run(input, cuts);
        expect(out).toBe(expected);
        expect(endpoints).toEqual(['/message?sessionId=é1']);
      }),
    );
  });

  it('passes a Streamable HTTP GET stream (priming event first) unchanged', () => {
    const get = 'id: 1\ndata: \n\nevent: endpoint\ndata: /not-this\n\n';
    expect(run(Buffer.from(get), [3, 9]).out).toBe(get);
  });

  it('releases keep-alive comments at once instead of holding them for an endpoint', () => {
    const rw = new EndpointRewriter((d) => d, () => {});
    expect(rw.push(Buffer.from(': keepalive\n\n'))?.toString()).toBe(': keepalive\n\n');
    expect(rw.push(Buffer.from(': keep'))).toBeUndefined();
    expect(rw.push(Buffer.from('alive\n\n'))?.toString()).toBe(': keepalive\n\n');
  });
});
