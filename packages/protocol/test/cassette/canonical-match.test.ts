// Canonical JSON, JSON path patterns, volatile masking and matching: properties over generated
// values (fast-check) plus the cases a user would hit first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildCassette,
  canonicalJson,
  CassetteMatcher,
  childPath,
  maskVolatile,
  MOCK_METHOD_NOT_CAPTURED,
  MOCK_NO_MATCH,
  parseIgnore,
  parsePathPattern,
  pathMatches,
  requestKey,
  similarity,
  VOLATILE_MARK,
  type Frame,
  type JsonObject,
} from '../../src/index.js';
import { frameMaker } from '../support/frames.js';

/** The same value with every object's members in a shuffled order. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffled(v, seed + i));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const order = entries.map((e, i) => ({ e, k: Math.sin(seed * 31 + i * 17) })).sort((a, b) => a.k - b.k);
    return Object.fromEntries(order.map(({ e: [k, v] }, i) => [k, shuffled(v, seed + i + 1)]));
  }
  return value;
}

const json = fc.jsonValue({ maxDepth: 4 });

describe('canonical JSON', () => {
  it('is the same text for the same value in any member order, and parses back to an equal value', () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        const text = canonicalJson(value);
        expect(canonicalJson(shuffled(value, seed))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('tells different values apart', () => {
    fc.assert(fc.property(json, json, (a, b) => (canonicalJson(a) === canonicalJson(b)) === (JSON.stringify(JSON.parse(canonicalJson(a))) === JSON.stringify(JSON.parse(canonicalJson(b))))));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('handles values deeper than the call stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 50_000; i++) deep = { a: deep };
    expect(canonicalJson(deep).length).toBe(50_000 * 6 + 6);
  });

  it('keys a request by method and params, never by id or _meta', () => {
    const a = { name: 'echo', arguments: { message: 'hi', n: 1 }, _meta: { progressToken: 7 } };
    const b = { arguments: { n: 1, message: 'hi' }, name: 'echo', _meta: { progressToken: 99, 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
    expect(requestKey('tools/call', a)).toBe(requestKey('tools/call', b));
    expect(requestKey('tools/call', a)).not.toBe(requestKey('tools/call', { ...a, arguments: { message: 'hi', n: 2 } }));
    expect(requestKey('tools/list', undefined)).toBe(requestKey('tools/list', {}));
  });

  it('rates similarity from 0 to 1, 1 exactly for equal params', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), fc.dictionary(fc.string(), json), (a, b) => {
        const s = similarity(a as JsonObject, b as JsonObject);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(similarity(a as JsonObject, shuffled(a, 3) as JsonObject)).toBe(1);
      }),
    );
  });
});

describe('JSON path patterns', () => {
  const steps = fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.nat({ max: 20 })), { maxLength: 6 });

  it('a formatted path parses back to a pattern that matches exactly that path', () => {
    fc.assert(
      fc.property(steps, steps, (path, other) => {
        const parsed = parsePathPattern(path.reduce<string>((p, s) => childPath(p, s), '$'));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(pathMatches(parsed.pattern, path)).toBe(true);
        if (JSON.stringify(other) !== JSON.stringify(path)) expect(pathMatches(parsed.pattern, other)).toBe(false);
      }),
    );
  });

  it('has wildcards for one step and `..` for any depth', () => {
    const p = (t: string) => {
      const r = parsePathPattern(t);
      if (!r.ok) throw new Error(r.message);
      return r.pattern;
    };
    expect(pathMatches(p('$.result.content[*].text'), ['result', 'content', 3, 'text'])).toBe(true);
    expect(pathMatches(p('$.result.content[*].text'), ['result', 'content', 3, 'type'])).toBe(false);
    expect(pathMatches(p('$..timestamp'), ['result', 'a', 0, 'timestamp'])).toBe(true);
    expect(pathMatches(p('$..timestamp'), ['timestamp'])).toBe(true);
    expect(pathMatches(p("$['odd key'].*"), ['odd key', 'x'])).toBe(true);
    expect(pathMatches(p('$["a]b"]'), ['a]b'])).toBe(true);
  });

  it('says what is wrong with a bad pattern', () => {
    expect(parsePathPattern('result.x')).toMatchObject({ ok: false, message: expect.stringContaining('starts with "$"') });
    expect(parsePathPattern('$.a[')).toMatchObject({ ok: false, message: expect.stringContaining('unclosed') });
    expect(parsePathPattern('$.a[x]')).toMatchObject({ ok: false, message: expect.stringContaining('neither an index') });
  });
});

describe('volatile masking', () => {
  it('masks timestamps and UUIDs inside text, and members named like moments or one-off tokens', () => {
    const a = { result: { content: [{ type: 'text', text: 'job 0b5c3a51-8f7e-4a4e-9a53-3f1c2d7e9b10 created 2026-12-02T09:00:00Z' }], _meta: { createdAt: 1733130000000, requestId: 'r-1' } } };
    const b = { result: { content: [{ type: 'text', text: 'job 6f2d1c0e-1a2b-4c3d-8e9f-0a1b2c3d4e5f created 2027-01-01T10:00:00.5+02:00' }], _meta: { createdAt: 1799999999999, requestId: 'r-2' } } };
    expect(maskVolatile(a)).toEqual(maskVolatile(b));
    expect(JSON.stringify(maskVolatile(a))).toContain(`job ${VOLATILE_MARK} created ${VOLATILE_MARK}`);
    expect(maskVolatile({ result: { count: 1 } })).not.toEqual(maskVolatile({ result: { count: 2 } }));
  });

  it('removes ignored paths, so a member on one side only is no difference', () => {
    const ignore = parseIgnore(['$.result.content[*].text']);
    expect(ignore.ok).toBe(true);
    if (!ignore.ok) return;
    const a = maskVolatile({ result: { content: [{ type: 'text', text: 'a' }] } }, { ignore: ignore.patterns });
    const b = maskVolatile({ result: { content: [{ type: 'text' }] } }, { ignore: ignore.patterns });
    expect(a).toEqual(b);
  });

  it('never changes its input, and masking twice is masking once', () => {
    fc.assert(
      fc.property(json, (value) => {
        const before = JSON.stringify(value);
        const once = maskVolatile(value);
        expect(JSON.stringify(value)).toBe(before);
        expect(maskVolatile(once)).toEqual(once);
      }),
    );
  });
});

describe('matching live requests to captured calls', () => {
  function capture(): Frame[] {
    const f = frameMaker('s1');
    const frames: Frame[] = [];
    const call = (id: number, method: string, params: JsonObject, result: JsonObject) => {
      frames.push(f('c2s', { jsonrpc: '2.0', id, method, params }), f('s2c', { jsonrpc: '2.0', id, result }));
    };
    call(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } });
    call(2, 'tools/call', { name: 'count', arguments: {} }, { content: [{ type: 'text', text: '1' }] });
    call(3, 'tools/call', { name: 'count', arguments: {} }, { content: [{ type: 'text', text: '2' }] });
    call(4, 'tools/call', { name: 'echo', arguments: { message: 'hello', loud: false } }, { content: [{ type: 'text', text: 'hello' }] });
    return frames;
  }

  const text = (r: ReturnType<ReturnType<CassetteMatcher['session']>['match']>) => (r.ok ? ((r.call.answer!.result as JsonObject).content as { text: string }[])[0]!.text : r.error.message);

  it('answers the same params in capture order, then repeats the last answer', () => {
    const matcher = new CassetteMatcher(buildCassette(capture()));
    const s = matcher.session();
    expect([1, 2, 3].map(() => text(s.match('tools/call', { name: 'count', arguments: {}, _meta: { progressToken: 5 } })))).toEqual(['1', '2', '2']);
    // A second mock session starts from the beginning again.
    expect(text(matcher.session().match('tools/call', { arguments: {}, name: 'count' }))).toBe('1');
  });

  it('answers initialize whatever the client calls itself', () => {
    const r = new CassetteMatcher(buildCassette(capture())).session().match('initialize', { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'other', version: '9' } });
    expect(r.ok).toBe(true);
  });

  it('names what was asked and the nearest captured calls when nothing matches', () => {
    const matcher = new CassetteMatcher(buildCassette(capture()));
    const r = matcher.session().match('tools/call', { name: 'echo', arguments: { message: 'bye', loud: false } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(MOCK_NO_MATCH);
    expect(r.error.message).toContain('no captured tools/call "echo" with these params');
    expect(r.error.data.nearest[0]).toMatchObject({ exchangeId: '7', differsAt: '$.params.arguments.message' });
    const unknown = matcher.session().match('prompts/list', {});
    expect(unknown.ok ? 0 : unknown.error.code).toBe(MOCK_METHOD_NOT_CAPTURED);
  });

  it('in loose mode takes the closest capture of the same method and tool, whatever the arguments', () => {
    const loose = new CassetteMatcher(buildCassette(capture()), 'loose');
    expect(text(loose.session().match('tools/call', { name: 'echo', arguments: { message: 'bye' } }))).toBe('hello');
    expect(loose.session().match('tools/call', { name: 'nope', arguments: {} }).ok).toBe(false);
  });

  it('every captured call is matched by its own request (property: strict matching finds what was captured)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })), { minLength: 1, maxLength: 8 }), fc.integer(), (specs, seed) => {
        const f = frameMaker('s1');
        const frames: Frame[] = [];
        specs.forEach(([name, args], i) => {
          frames.push(f('c2s', { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: args } }), f('s2c', { jsonrpc: '2.0', id: i + 1, result: { content: [], n: i } }));
        });
        const matcher = new CassetteMatcher(buildCassette(frames));
        specs.forEach(([name, args]) => {
          const r = matcher.session().match('tools/call', shuffled({ name, arguments: args, _meta: { progressToken: seed } }, seed) as JsonObject);
          expect(r.ok).toBe(true);
          if (r.ok) expect(canonicalJson(r.call.params!.arguments)).toBe(canonicalJson(args));
        });
      }),
    );
  });
});
