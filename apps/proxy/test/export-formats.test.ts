// The file formats on their own: JSONL is lossless and names broken lines; HAR imports from
// Chrome DevTools and mitmproxy files, skipping what is not MCP and naming broken entries.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Frame } from '@mcpscope/protocol';
import { jsonlFrameLine, jsonlHeaderLine, jsonlLinkLine, readJsonl, JSONL_FORMAT } from '../src/interchange/jsonl.js';
import { importCapture } from '../src/interchange/importer.js';
import { writeHar } from '../src/interchange/har-writer.js';
import { validateHar } from '../src/interchange/har-validate.js';
import { parseJsonPath } from '@mcpscope/protocol';
import { Redactor } from '../src/redaction/export-redaction.js';

const header = jsonlHeaderLine({ format: JSONL_FORMAT, version: 1, exportedAt: '2026-01-01T00:00:00.000Z', generator: 'test', redaction: { enabled: false, rules: [] } });

const frameArb: fc.Arbitrary<Frame> = fc.record(
  {
    seq: fc.integer({ min: 1, max: 1_000_000 }),
    ts: fc.double({ min: 1e12, max: 2e12, noNaN: true }),
    sessionKey: fc.string(),
    direction: fc.constantFrom('c2s', 's2c'),
    transport: fc.constantFrom('http-json', 'sse', 'stdio', 'legacy-sse', 'replay'),
    kind: fc.constantFrom('data', 'transport', 'log'),
    // Any text at all, including lone surrogates, NUL and line breaks: frames are evidence.
    raw: fc.string({ unit: 'binary' }),
    http: fc.record({ method: fc.constantFrom('POST', 'GET'), path: fc.string(), status: fc.integer({ min: 100, max: 599 }), connectionId: fc.string() }, { requiredKeys: ['method', 'path'] }),
  },
  { requiredKeys: ['seq', 'ts', 'sessionKey', 'direction', 'transport', 'kind', 'raw'] },
) as fc.Arbitrary<Frame>;

describe('mcpscope JSONL', () => {
  it('reads back exactly the frames it wrote, whatever their text', () => {
    fc.assert(
      fc.property(fc.uniqueArray(frameArb, { selector: (f) => f.seq, maxLength: 20 }), (frames) => {
        const sorted = [...frames].sort((a, b) => a.seq - b.seq);
        const text = header + sorted.map(jsonlFrameLine).join('');
        const read = readJsonl(text);
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        expect(read.value.problems).toEqual([]);
        expect(read.value.frames).toEqual(sorted);
      }),
    );
  });

  it('names each broken line and imports the others', () => {
    const good = (seq: number) => jsonlFrameLine({ seq, ts: 1.7e12 + seq, sessionKey: 's', direction: 'c2s', transport: 'http-json', kind: 'data', raw: '{"jsonrpc":"2.0","method":"x"}' });
    const text = header + good(1) + '{"seq": 2, "ts": \n' + good(3) + '{"seq":4,"ts":1,"sessionKey":"s","direction":"up","transport":"sse","kind":"data","raw":""}\n' + good(3);
    const result = importCapture(text, 'bug.jsonl');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.frames).toHaveLength(2);
    expect(result.report.problems).toEqual([
      { where: 'line 3', message: expect.stringContaining('not JSON') },
      { where: 'line 5', message: '"direction" must be one of c2s, s2c' },
      { where: 'line 6', message: expect.stringContaining('seq 3 is not after the previous frame') },
    ]);
    expect(result.report.sessionKeys).toEqual(['import:bug.jsonl:s']);
  });

  it('reads replay links back, and names a broken link line without losing the others', () => {
    const frame = (seq: number) => jsonlFrameLine({ seq, ts: 1.7e12 + seq, sessionKey: 's', direction: 'c2s', transport: 'http-json', kind: 'data', raw: `{"jsonrpc":"2.0","id":${seq},"method":"tools/call"}` });
    const link = { exchangeId: '3', replayOf: '1', mode: 'session', ts: 1.7e12 + 3 };
    const text = header + frame(1) + frame(3) + jsonlLinkLine(link) + '{"type":"link","exchangeId":"x","replayOf":"1","mode":"session","ts":1}\n';
    const read = readJsonl(text);
    expect(read.ok && read.value.links).toEqual([link]);
    expect(read.ok && read.value.problems).toEqual([{ where: 'line 5', message: expect.stringContaining('"exchangeId"') }]);
    const imported = importCapture(text, 'links.jsonl');
    expect(imported.ok && imported.report.links).toBe(1);
  });

  it('refuses a file from a newer mcpscope, saying which version it is', () => {
    const result = importCapture('{"format":"mcpscope-jsonl","version":7}\n', 'new.jsonl');
    expect(result).toMatchObject({ ok: false, problem: { where: 'line 1', message: expect.stringContaining('version 7') } });
  });

  it('says what it expected when the file is neither JSONL nor HAR', () => {
    expect(importCapture('hello, world', 'notes.txt')).toMatchObject({ ok: false, problem: { where: 'file', message: expect.stringContaining('neither mcpscope JSONL') } });
    expect(importCapture('{"entries": []}', 'x.har')).toMatchObject({ ok: false, problem: { message: expect.stringContaining('not a HAR file') } });
  });
});

const t0 = Date.parse('2026-03-01T10:00:00.000Z');
const rpc = (o: object) => JSON.stringify({ jsonrpc: '2.0', ...o });

/** An entry as Chrome DevTools writes it (HTTP/2 pseudo-headers, cookies, `_`-fields of its own). */
function chromeEntry(i: number, body: string | undefined, response: { status: number; mimeType: string; text: string; encoding?: string; headers?: { name: string; value: string }[] }) {
  return {
    _initiator: { type: 'script' },
    _priority: 'High',
    _resourceType: 'fetch',
    cache: {},
    connection: '443',
    request: {
      method: body === undefined ? 'GET' : 'POST',
      url: 'https://mcp.example.com/mcp',
      httpVersion: 'http/2.0',
      headers: [
        { name: ':authority', value: 'mcp.example.com' },
        { name: ':method', value: 'POST' },
        { name: 'Content-Type', value: 'application/json' },
        { name: 'Authorization', value: 'Bearer chrome-secret-token-123' },
        { name: 'Cookie', value: 'sid=chrome-cookie-secret' },
        ...(i > 1 ? [{ name: 'mcp-session-id', value: 'S1' }] : []),
      ],
      queryString: [],
      cookies: [{ name: 'sid', value: 'chrome-cookie-secret', path: '/', domain: 'mcp.example.com', expires: '2027-01-01T00:00:00.000Z', httpOnly: true, secure: true }],
      headersSize: -1,
      bodySize: body?.length ?? 0,
      ...(body !== undefined ? { postData: { mimeType: 'application/json', text: body } } : {}),
    },
    response: {
      status: response.status,
      statusText: '',
      httpVersion: 'http/2.0',
      headers: [{ name: 'content-type', value: response.mimeType }, { name: 'mcp-session-id', value: 'S1' }, ...(response.headers ?? [])],
      cookies: [],
      content: { size: response.text.length, mimeType: response.mimeType, text: response.text, ...(response.encoding ? { encoding: response.encoding } : {}) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _transferSize: 300,
      _error: null,
    },
    serverIPAddress: '127.0.0.1',
    startedDateTime: new Date(t0 + i * 100).toISOString(),
    time: 12.5,
    timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0.1, wait: 10, receive: 1.4, _blocked_queueing: 0.5 },
  };
}

describe('HAR import', () => {
  const chromeHar = {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      pages: [{ startedDateTime: new Date(t0).toISOString(), id: 'page_1', title: 'http://app.example.com/', pageTimings: { onContentLoad: 50, onLoad: 60 } }],
      entries: [
        { ...chromeEntry(0, undefined, { status: 200, mimeType: 'text/html', text: '<html></html>' }), request: { ...chromeEntry(0, undefined, { status: 200, mimeType: 'text/html', text: '' }).request, url: 'http://app.example.com/' } },
        chromeEntry(1, rpc({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'web-client', version: '2.0.0' } } }), {
          status: 200,
          mimeType: 'text/event-stream',
          text: `event: message\nid: ev-1\ndata: ${rpc({ id: 1, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'srv', version: '1' } } })}\n\n`,
        }),
        chromeEntry(2, rpc({ method: 'notifications/initialized' }), { status: 202, mimeType: 'x-unknown', text: '' }),
        chromeEntry(3, rpc({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }), {
          status: 200,
          mimeType: 'application/json',
          text: Buffer.from(rpc({ id: 2, result: { content: [{ type: 'text', text: 'hi ✓' }] } })).toString('base64'),
          encoding: 'base64',
        }),
        chromeEntry(4, rpc({ id: 3, method: 'tools/call', params: { name: 'slow' } }), { status: 0, mimeType: 'x-unknown', text: '' }),
        { startedDateTime: 'yesterday', request: {}, response: {} },
      ],
    },
  };

  it('imports a Chrome DevTools HAR: MCP entries become frames, the page is skipped, a broken entry is named', () => {
    const result = importCapture(JSON.stringify(chromeHar), 'chrome.har');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { frames, report } = result;
    expect(report).toMatchObject({ format: 'har', skipped: 1, sessionKeys: ['import:chrome.har:S1'] });
    expect(report.problems).toEqual([{ where: 'entry 6', message: '"startedDateTime" must be an ISO date' }]);
    expect(frames.map((f) => [f.direction, f.kind, f.transport])).toEqual([
      ['c2s', 'data', 'http-json'],
      ['s2c', 'data', 'sse'],
      ['c2s', 'data', 'http-json'],
      ['c2s', 'data', 'http-json'],
      ['s2c', 'data', 'http-json'],
      ['c2s', 'data', 'http-json'],
      ['s2c', 'transport', 'http-json'],
    ]);
    expect(frames[1]!.http).toMatchObject({ sseId: 'ev-1', sseEvent: 'message', status: 200 });
    expect(JSON.parse(frames[4]!.raw).result.content[0].text).toBe('hi ✓');
    // Pseudo-headers dropped, credentials redacted on the way in: the store never holds them.
    expect(frames[0]!.http!.requestHeaders).not.toHaveProperty(':authority');
    expect(JSON.stringify(frames)).not.toContain('chrome-secret-token-123');
    expect(JSON.stringify(frames)).not.toContain('chrome-cookie-secret');
  });

  it('imports a mitmproxy HAR (its hardump addon writes plain HAR 1.2 with text bodies)', () => {
    const mitm = {
      log: {
        version: '1.2',
        creator: { name: 'mitmproxy', version: '11.0.0', comment: '' },
        pages: [],
        entries: [
          {
            startedDateTime: new Date(t0).toISOString(),
            time: 3,
            request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'content-type', value: 'application/json' }, { name: 'user-agent', value: 'node' }], queryString: [], headersSize: 100, bodySize: 40, postData: { mimeType: 'application/json', text: rpc({ id: 'a', method: 'ping' }), params: [] } },
            response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'content-type', value: 'application/json' }], content: { size: 30, compression: 0, mimeType: 'application/json', text: rpc({ id: 'a', result: {} }) }, redirectURL: '', headersSize: 80, bodySize: 30 },
            cache: {},
            timings: { send: 0, receive: 1, wait: 2, connect: -1, ssl: -1 },
            serverIPAddress: '127.0.0.1',
          },
        ],
      },
    };
    const result = importCapture(JSON.stringify(mitm), 'flows.har');
    expect(result.ok && result.frames.map((f) => [f.direction, f.sessionKey, f.ts - t0])).toEqual([
      ['c2s', 'import:flows.har:client:node', 0],
      ['s2c', 'import:flows.har:client:node', 3],
    ]);
  });
});

describe('HAR output', () => {
  it('is valid HAR 1.2 and keeps SSE events as event-stream text and _sseEvents', () => {
    const http = { method: 'POST', path: '/mcp?x=1', connectionId: 'h1' };
    const frames: Frame[] = [
      { seq: 1, ts: t0, sessionKey: 'S', direction: 'c2s', transport: 'http-json', kind: 'data', raw: rpc({ id: 1, method: 'tools/call', params: { name: 'wrap' } }), http: { ...http, requestHeaders: { host: '127.0.0.1:7788', 'content-type': 'application/json' } } },
      { seq: 2, ts: t0 + 5, sessionKey: 'S', direction: 's2c', transport: 'sse', kind: 'data', raw: rpc({ method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }), http: { ...http, status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, sseId: '7' } },
      { seq: 3, ts: t0 + 9, sessionKey: 'S', direction: 's2c', transport: 'sse', kind: 'data', raw: rpc({ id: 1, result: {} }), http: { ...http, status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, sseId: '8' } },
      { seq: 4, ts: t0 + 10, sessionKey: 'stdio-1', direction: 's2c', transport: 'stdio', kind: 'log', raw: 'server started' },
    ];
    const har = writeHar(frames, { generatorVersion: 'test', redaction: { enabled: true, rules: [] } });
    expect(validateHar(har)).toEqual([]);
    const [entry] = har.log.entries;
    expect(entry!.request).toMatchObject({ url: 'http://127.0.0.1:7788/mcp?x=1', queryString: [{ name: 'x', value: '1' }] });
    expect(entry!.response.content.text).toBe(`id: 7\ndata: ${frames[1]!.raw}\n\nid: 8\ndata: ${frames[2]!.raw}\n\n`);
    expect(entry!._sseEvents!.map((e) => e.id)).toEqual(['7', '8']);
    expect(entry!.timings).toMatchObject({ wait: 5, receive: 4 });
    expect(har.log._mcpscope!.frames).toEqual([expect.objectContaining({ seq: 4, raw: 'server started', sessionKey: 'stdio-1' })]);
    // And it imports back to the same frames.
    const back = importCapture(JSON.stringify(har), 'out.har');
    expect(back.ok && back.frames.map((f) => [f.ts, f.raw, f.kind, f.http?.sseId])).toEqual(frames.map((f) => [f.ts, f.raw, f.kind, f.http?.sseId]));
  });

  it('the validator catches what HAR 1.2 forbids', () => {
    expect(validateHar({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{ startedDateTime: 'now', time: 1, request: {}, response: {}, cache: {}, timings: { send: 0, wait: -3, receive: 0 }, extra: 1 }] } })).toEqual(
      expect.arrayContaining(['$.log.entries[0].startedDateTime: must be an ISO 8601 date-time', '$.log.entries[0].request.url: is required', '$.log.entries[0].timings.wait: must be -1 or a non-negative number', '$.log.entries[0].extra: is not a HAR 1.2 field (custom fields must start with "_")']),
    );
  });
});

describe('--redact JSON paths', () => {
  it('parses dotted, bracketed and wildcard paths and names the position of a mistake', () => {
    expect(parseJsonPath("$.params.arguments['card number'][*].x")).toEqual({ ok: true, path: ['$', 'params', 'arguments', 'card number', '*', 'x'] });
    expect(parseJsonPath('$.a..b')).toEqual({ ok: false, message: 'expected a key after "." at position 4 of "$.a..b"' });
    expect(parseJsonPath('params.x')).toMatchObject({ ok: false });
  });
});

describe('echoes of redacted values', () => {
  it('are scrubbed wherever they appear in text, and nothing else changes', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9_-]{6,24}$/);
    fc.assert(
      fc.property(fc.uniqueArray(token, { minLength: 1, maxLength: 30 }), fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 6 }), fc.nat(), (secrets, fillers, pick) => {
        const redactor = new Redactor({ enabled: true });
        redactor.learn({ seq: 1, ts: 0, sessionKey: 's', direction: 'c2s', transport: 'http-json', kind: 'data', raw: JSON.stringify({ params: secrets.map((password) => ({ password })) }) });
        const secret = secrets[pick % secrets.length]!;
        const text = fillers.join(` ${secret} `);
        const out = redactor.text(text);
        for (const s of secrets) expect(out).not.toContain(s);
        // What is left, with the markers taken out, is the fillers (less any secrets inside them).
        if (!fillers.some((f) => secrets.some((s) => (f + ' ').includes(s) || (' ' + f).includes(s)))) {
          expect(out).toBe(fillers.join(' [redacted] '));
        }
      }),
    );
  });
});
