// The response parser under `mcpscope load`'s raw sockets: a run of valid HTTP/1.1 responses
// (Content-Length, chunked with extensions and trailers, 204, interim 1xx, a close-framed last
// one) parses to the same heads and bodies however the bytes are split into chunks; any bytes at
// all end in whole responses or a clear HttpResponseError once the connection closes, never in
// waiting for more.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpResponseError, HttpResponseParser, type HttpResponseEvent } from '../src/load/http-response-parser.js';

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
  framing: 'length' | 'chunked' | 'none' | 'close';
  pieces: number[];
  interim: boolean;
}

const headerName = fc.stringMatching(/^x-[a-z0-9-]{1,12}$/);
const headerValue = fc.stringMatching(/^[ -~]{0,30}$/).map((v) => v.trim());
const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.integer({ min: 200, max: 599 }).filter((s) => s !== 204 && s !== 304),
  headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
  body: fc.string({ maxLength: 300 }),
  framing: fc.constantFrom('length' as const, 'chunked' as const),
  pieces: fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 6 }),
  interim: fc.boolean(),
});

function encode(a: Answer): Buffer {
  const body = Buffer.from(a.body);
  let head = `${a.interim ? 'HTTP/1.1 100 Continue\r\n\r\n' : ''}HTTP/1.1 ${a.status} Reason Words\r\n`;
  for (const [name, value] of a.headers) head += `${name}: ${value}\r\n`;
  if (a.framing === 'length') return Buffer.concat([Buffer.from(`${head}Content-Length: ${body.length}\r\n\r\n`), body]);
  if (a.framing === 'none') return Buffer.from(`${head}\r\n`);
  if (a.framing === 'close') return Buffer.concat([Buffer.from(`${head}\r\n`), body]);
  const parts: Buffer[] = [Buffer.from(`${head}Transfer-Encoding: chunked\r\n\r\n`)];
  let at = 0;
  for (const size of a.pieces) {
    if (at >= body.length) break;
    const piece = body.subarray(at, at + size);
    at += piece.length;
    parts.push(Buffer.from(`${piece.length.toString(16)};ext=1\r\n`), piece, Buffer.from('\r\n'));
  }
  if (at < body.length) parts.push(Buffer.from(`${(body.length - at).toString(16).toUpperCase()}\r\n`), body.subarray(at), Buffer.from('\r\n'));
  parts.push(Buffer.from('0\r\nx-trailer: t\r\n\r\n'));
  return Buffer.concat(parts);
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
  keepAlive: boolean;
}

/** Pushes the chunks, then closes; whole responses, or the parser's error. */
function parse(chunks: Buffer[]): Parsed[] | HttpResponseError {
  const parser = new HttpResponseParser();
  const events: HttpResponseEvent[] = [];
  try {
    for (const chunk of chunks) events.push(...parser.push(chunk));
    events.push(...parser.end());
  } catch (err) {
    if (err instanceof HttpResponseError) return err;
    throw err;
  }
  const out: Parsed[] = [];
  let body: Buffer[] = [];
  for (const e of events) {
    if (e.kind === 'head') {
      out.push({ status: e.status, headers: e.headers, body: '', keepAlive: true });
      body = [];
    } else if (e.kind === 'data') body.push(e.data);
    else Object.assign(out[out.length - 1]!, { body: Buffer.concat(body).toString(), keepAlive: e.keepAlive });
  }
  return out;
}

/** `bytes` cut at the given offsets. */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let last = 0;
  for (const c of [...at, bytes.length]) {
    chunks.push(bytes.subarray(last, c));
    last = c;
  }
  return chunks;
}

describe('HttpResponseParser', () => {
  it('any split of valid responses parses the same, with the bodies and headers sent', () => {
    const exchange = fc.record({ answers: fc.array(answer, { minLength: 1, maxLength: 3 }), last: fc.constantFrom('none' as const, 'close' as const, 'keep' as const), cuts: fc.array(fc.nat(), { maxLength: 12 }) });
    fc.assert(
      fc.property(exchange, ({ answers, last, cuts }) => {
        const all = last === 'keep' ? answers : [...answers.slice(0, -1), { ...answers[answers.length - 1]!, framing: last === 'none' ? ('none' as const) : ('close' as const), status: last === 'none' ? 204 : 200 }];
        const bytes = Buffer.concat(all.map(encode));
        const whole = parse([bytes]);
        expect(parse(split(bytes, cuts))).toEqual(whole);
        expect(parse([...bytes].map((b) => Buffer.from([b])))).toEqual(whole);
        if (whole instanceof HttpResponseError) throw whole;
        expect(whole.map((p) => p.status)).toEqual(all.map((a) => a.status));
        expect(whole.map((p) => p.body)).toEqual(all.map((a) => (a.framing === 'none' ? '' : a.body)));
        for (const [i, a] of all.entries()) {
          for (const [name] of a.headers) expect(whole[i]!.headers[name]).toBeDefined();
          expect(whole[i]!.keepAlive).toBe(a.framing !== 'close');
        }
      }),
    );
  });

  it('any bytes at all end, once the connection closes, in whole responses or a clear error', () => {
    const valid = fc.tuple(answer, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([a, at, byte]) => {
      const bytes = Buffer.from(encode(a));
      bytes[at % bytes.length] = byte;
      return bytes;
    });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), valid), fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const result = parse(split(bytes, cuts));
        if (result instanceof HttpResponseError) expect(result.message.length).toBeGreaterThan(10);
        else for (const r of result) expect(r.status).toBeGreaterThanOrEqual(200);
      }),
    );
  });

  it('names what was wrong: a cut body, a bad length, a bad chunk, a head without end', () => {
    const cut = parse([Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc')]);
    expect(cut).toBeInstanceOf(HttpResponseError);
    expect((cut as Error).message).toMatch(/closed in the middle of a response \(in its body\)/);
    expect((parse([Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n')]) as Error).message).toMatch(/Content-Length that is not one number/);
    expect((parse([Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n')]) as Error).message).toMatch(/chunk size line is not hexadecimal/);
    expect((parse([Buffer.from('SSH-2.0-OpenSSH\r\n\r\n')]) as Error).message).toMatch(/not an HTTP\/1\.x status line/);
    const endless = new HttpResponseParser();
    const line = Buffer.from(`HTTP/1.1 200 OK\r\nx-a: ${'a'.repeat(1000)}\r\n`);
    expect(() => {
      for (let i = 0; i < 100; i++) endless.push(line);
    }).toThrow(/response head is longer than 65536 bytes/);
  });
});
