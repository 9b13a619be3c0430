/**
 * A small, strict HTTP/1.1 response parser for `mcpscope load`'s raw keep-alive connections:
 * bytes in (any split), events out (a head, body pieces, the end of each response). It knows
 * what a load generator's answers need: the status line, header fields (names lower-cased,
 * repeats joined with ", "), and bodies framed by Content-Length, by chunked transfer coding
 * (RFC 9112 §7.1, trailers read and dropped), or by the connection's close (RFC 9112 §6.3 rule 8).
 * Interim 1xx answers are skipped; 204 and 304 have no body.
 *
 * Invariants: anything it cannot read is an `HttpResponseError` that says what was wrong, and the
 * parser stays failed; a head or chunk-size line has a size limit, so bad input never makes it
 * buffer without end. `end()` (the connection closed) either completes a close-framed body or
 * throws when a response was cut.
 */

export type HttpResponseEvent = { kind: 'head'; status: number; headers: Record<string, string> } | { kind: 'data'; data: Buffer } | { kind: 'end'; keepAlive: boolean };

export class HttpResponseError extends Error {
  readonly code = 'EHTTPRESPONSE';
}

const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 4 * 1024;
const EMPTY = Buffer.alloc(0);
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' | 'until-close' | 'failed';

export class HttpResponseParser {
  private state: State = 'head';
  /** Bytes of a head or line not complete yet. */
  private pending: Buffer = EMPTY;
  /** Body bytes still due (Content-Length or the current chunk). */
  private remaining = 0;
  private trailerBytes = 0;
  private keepAlive = true;

  /** True between responses (nothing of the next one read). */
  get idle(): boolean {
    return this.state === 'head' && this.pending.length === 0;
  }

  push(chunk: Buffer): HttpResponseEvent[] {
    if (this.state === 'failed') throw new HttpResponseError('the response could not be read (an earlier error)');
    const out: HttpResponseEvent[] = [];
    const buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = EMPTY;
    try {
      let at = 0;
      while (at < buf.length) at = this.step(buf, at, out);
    } catch (err) {
      this.state = 'failed';
      throw err;
    }
    return out;
  }

  /** The connection closed: completes a body framed by the close; throws when a response was cut. */
  end(): HttpResponseEvent[] {
    if (this.state === 'until-close') {
      this.state = 'head';
      return [{ kind: 'end', keepAlive: false }];
    }
    if (this.state === 'failed' || this.idle) return [];
    const where = this.state === 'head' ? 'in its head' : 'in its body';
    this.state = 'failed';
    throw new HttpResponseError(`the connection closed in the middle of a response (${where})`);
  }

  /** Reads from `at` in the current state; returns where the next step starts. */
  private step(buf: Buffer, at: number, out: HttpResponseEvent[]): number {
    switch (this.state) {
      case 'head': {
        const end = buf.indexOf('\r\n\r\n', at, 'latin1');
        if (end < 0 || end - at > MAX_HEAD_BYTES) return this.keep(buf, at, MAX_HEAD_BYTES, 'a response head');
        this.readHead(buf.toString('latin1', at, end), out);
        return end + 4;
      }
      case 'length':
      case 'chunk-data': {
        const n = Math.min(this.remaining, buf.length - at);
        out.push({ kind: 'data', data: buf.subarray(at, at + n) });
        this.remaining -= n;
        if (this.remaining === 0) {
          if (this.state === 'length') this.finish(out);
          else this.state = 'chunk-crlf';
        }
        return at + n;
      }
      case 'chunk-crlf': {
        if (buf.length - at < 2) return this.keep(buf, at, 2, 'a chunk end');
        if (buf[at] !== 13 || buf[at + 1] !== 10) throw new HttpResponseError('a chunk of the body is longer than its size line says');
        this.state = 'chunk-size';
        return at + 2;
      }
      case 'chunk-size': {
        const eol = buf.indexOf('\r\n', at, 'latin1');
        if (eol < 0 || eol - at > MAX_LINE_BYTES) return this.keep(buf, at, MAX_LINE_BYTES, 'a chunk size line');
        const line = buf.toString('latin1', at, eol);
        const size = CHUNK_SIZE.exec(line);
        if (!size) throw new HttpResponseError(`a chunk size line is not hexadecimal: ${JSON.stringify(line.slice(0, 40))}`);
        this.remaining = parseInt(size[1]!, 16);
        this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
        this.trailerBytes = 0;
        return eol + 2;
      }
      case 'trailers': {
        const eol = buf.indexOf('\r\n', at, 'latin1');
        if (eol < 0 || eol - at > MAX_LINE_BYTES) return this.keep(buf, at, MAX_LINE_BYTES, 'a trailer line');
        if (eol === at) {
          this.finish(out);
          return at + 2;
        }
        this.trailerBytes += eol - at;
        if (this.trailerBytes > MAX_HEAD_BYTES) throw new HttpResponseError(`the trailers are longer than ${MAX_HEAD_BYTES} bytes`);
        headerField(buf.toString('latin1', at, eol));
        return eol + 2;
      }
      case 'until-close':
        out.push({ kind: 'data', data: buf.subarray(at) });
        return buf.length;
      case 'failed':
        throw new HttpResponseError('the response could not be read (an earlier error)');
    }
  }

  /** Keeps an incomplete head or line for the next push, unless it is already longer than `limit`. */
  private keep(buf: Buffer, at: number, limit: number, what: string): number {
    if (buf.length - at > limit) throw new HttpResponseError(`${what} is longer than ${limit} bytes`);
    this.pending = Buffer.from(buf.subarray(at));
    return buf.length;
  }

  private readHead(head: string, out: HttpResponseEvent[]): void {
    const firstEnd = head.indexOf('\r\n');
    const statusLine = firstEnd < 0 ? head : head.slice(0, firstEnd);
    const status = STATUS_LINE.exec(statusLine);
    if (!status) throw new HttpResponseError(`not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 60))}`);
    const code = Number(status[2]);
    const headers: Record<string, string> = {};
    // Lines of `name: value` after the status line; the head never holds an empty line.
    for (let at = firstEnd < 0 ? head.length : firstEnd + 2; at < head.length; ) {
      let eol = head.indexOf('\r\n', at);
      if (eol < 0) eol = head.length;
      const [name, value] = headerField(head.slice(at, eol));
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      at = eol + 2;
    }
    if (code === 101) throw new HttpResponseError('the server switched protocols (HTTP 101), which a load generator cannot follow');
    if (code < 200) return;
    const connection = headers.connection?.toLowerCase();
    if (status[1] === '1') this.keepAlive = connection === undefined || !/(?:^|,)\s*close\s*(?:,|$)/.test(connection);
    else this.keepAlive = connection !== undefined && /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(connection);
    out.push({ kind: 'head', status: code, headers });
    const te = headers['transfer-encoding'];
    const length = headers['content-length'];
    if (te !== undefined) {
      if (length !== undefined) throw new HttpResponseError('the response has both Transfer-Encoding and Content-Length');
      if (te.split(',').pop()!.trim().toLowerCase() !== 'chunked') throw new HttpResponseError(`a Transfer-Encoding that does not end in chunked: ${JSON.stringify(te)}`);
      this.state = 'chunk-size';
    } else if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length)) throw new HttpResponseError(`a Content-Length that is not one number: ${JSON.stringify(length)}`);
      this.remaining = Number(length);
      this.state = 'length';
      if (this.remaining === 0) this.finish(out);
    } else if (code === 204 || code === 304) {
      this.finish(out);
    } else {
      this.keepAlive = false;
      this.state = 'until-close';
    }
  }

  private finish(out: HttpResponseEvent[]): void {
    out.push({ kind: 'end', keepAlive: this.keepAlive });
    this.state = 'head';
    this.keepAlive = true;
  }
}

/** One `name: value` line: the name lower-cased, the value without surrounding blanks. */
function headerField(line: string): [string, string] {
  const colon = line.indexOf(':');
  const name = colon > 0 ? line.slice(0, colon) : '';
  if (!TOKEN.test(name)) throw new HttpResponseError(`not a header field: ${JSON.stringify(line.slice(0, 60))}`);
  return [name.toLowerCase(), line.slice(colon + 1).trim()];
}
