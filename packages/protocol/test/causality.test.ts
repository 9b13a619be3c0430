import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callsBehind, openAt, requestsDuring, type CallSpan, type ServerRequestSpan } from '../src/index.js';

const session = fc.constantFrom('s1', 's2');
const connection = fc.option(fc.constantFrom('c1', 'c2', 'c3', 'c4'), { nil: undefined });
const call = (i: number) =>
  fc.record({ sessionKey: session, startTs: fc.nat(100), length: fc.option(fc.nat(50), { nil: undefined }), connectionId: connection }).map(
    ({ length, ...c }): CallSpan => ({ id: `call${i}`, ...c, ...(length === undefined ? {} : { endTs: c.startTs + length }) }),
  );
const request = (i: number) =>
  fc.record({ sessionKey: session, startTs: fc.nat(160), via: fc.option(fc.record({ method: fc.constantFrom('POST', 'GET'), connectionId: connection }), { nil: undefined }) }).map(
    ({ via, ...r }): ServerRequestSpan => ({ id: `req${i}`, ...r, ...(via ? { via: via.connectionId === undefined ? { method: via.method } : { method: via.method, connectionId: via.connectionId } } : {}) }),
  );
const many = <T>(make: (i: number) => fc.Arbitrary<T>, max: number) => fc.integer({ min: 0, max }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => make(i))));
const world = fc.record({ calls: many(call, 6), requests: many(request, 6) });

describe('causality links', () => {
  it('a request on a call’s POST stream links to that call exactly, even when others overlap it', () => {
    const calls: CallSpan[] = [
      { id: '3', sessionKey: 's', startTs: 0, endTs: 100, connectionId: 'post-a' },
      { id: '5', sessionKey: 's', startTs: 10, endTs: 100, connectionId: 'post-b' },
    ];
    const sampling: ServerRequestSpan = { id: '7', sessionKey: 's', startTs: 50, via: { method: 'POST', connectionId: 'post-b' } };
    expect(callsBehind(sampling, calls)).toEqual([{ id: '5', basis: 'stream' }]);
    expect(requestsDuring(calls[0]!, [sampling], calls)).toEqual([]);
    expect(requestsDuring(calls[1]!, [sampling], calls)).toEqual([{ id: '7', basis: 'stream' }]);
  });

  it('a request on the GET stream (or stdio) falls back to the calls open at the time, as overlap', () => {
    const calls: CallSpan[] = [
      { id: '3', sessionKey: 's', startTs: 0, endTs: 40 },
      { id: '5', sessionKey: 's', startTs: 10 },
      { id: '6', sessionKey: 'other', startTs: 10 },
    ];
    const roots: ServerRequestSpan = { id: '7', sessionKey: 's', startTs: 50, via: { method: 'GET', connectionId: 'get' } };
    expect(callsBehind(roots, calls)).toEqual([{ id: '5', basis: 'overlap' }]);
  });

  it('never links across sessions, and links by stream only through the same HTTP request', () => {
    fc.assert(
      fc.property(world, ({ calls, requests }) => {
        for (const r of requests) {
          for (const link of callsBehind(r, calls)) {
            const c = calls.find((x) => x.id === link.id)!;
            expect(c.sessionKey).toBe(r.sessionKey);
            if (link.basis === 'stream') expect(r.via).toEqual({ method: 'POST', connectionId: c.connectionId });
            else expect(openAt(c, r.startTs)).toBe(true);
          }
        }
      }),
    );
  });

  it('a request that rode on a POST is never linked by time; one that did not is linked to every call open then', () => {
    fc.assert(
      fc.property(world, ({ calls, requests }) => {
        for (const r of requests) {
          const links = callsBehind(r, calls);
          if (r.via?.method === 'POST' && r.via.connectionId !== undefined) expect(links.every((l) => l.basis === 'stream')).toBe(true);
          else expect(links.map((l) => l.id)).toEqual(calls.filter((c) => c.sessionKey === r.sessionKey && openAt(c, r.startTs)).map((c) => c.id));
        }
      }),
    );
  });

  it('a call lists exactly the requests that list it, with the same basis', () => {
    fc.assert(
      fc.property(world, ({ calls, requests }) => {
        for (const c of calls) {
          const forward = requests.flatMap((r) => callsBehind(r, calls).filter((l) => l.id === c.id).map((l) => ({ id: r.id, basis: l.basis })));
          expect(requestsDuring(c, requests, calls)).toEqual(forward);
        }
      }),
    );
  });
});
