/**
 * `mcpscope load`'s plain-HTTP wire: keep-alive sockets (node:net) of its own, one exchange at a
 * time each, a request written as one buffer and its answer read by http-response-parser.ts. A
 * load generator must cost far less per call than the server it measures; a general HTTP client
 * spends most of a trivial call in its own bookkeeping.
 *
 * Invariants: a request's bytes (head and body, with Content-Length) are built once per distinct
 * header record and body; a connection goes back to the idle pool only after its answer ended
 * cleanly and the server did not ask to close it; a connection whose answer was abandoned part
 * way, broke, or timed out is destroyed. Nothing is sent twice: an idle connection is reused only
 * well inside the server's keep-alive time (its `Keep-Alive: timeout=N` hint less a second, else
 * 4 s, as undici does), so a server closing it while idle does not race the next request.
 */
import { connect, type Socket } from 'node:net';
import { HttpResponseParser } from './http-response-parser.js';

/** An answer whose head has arrived; the body is read once, by `text()`, `chunks()` or `discard()`. */
export interface WireResponse {
  statusCode: number;
  headers: Record<string, string>;
  text(): Promise<string>;
  chunks(): AsyncIterable<Buffer>;
  /** Drops the body (the connection is reused when it ends by itself). */
  discard(): void;
}

/** Names never taken from the caller's headers: this wire frames the message itself. */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

export class RawHttpPool {
  private readonly idle: RawConnection[] = [];
  private readonly open = new Set<RawConnection>();
  private readonly built = new WeakMap<Record<string, string>, { body: Buffer; bytes: Buffer }>();
  private readonly path: string;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly timeoutMs: number,
  ) {
    this.path = `${url.pathname}${url.search}`;
  }

  async request(method: 'POST' | 'DELETE', headers: Record<string, string>, body?: Buffer): Promise<WireResponse> {
    const bytes = this.bytesOf(method, headers, body);
    const now = performance.now();
    for (let reused = this.idle.pop(); reused; reused = this.idle.pop()) {
      if (reused.freshAt(now)) return reused.send(bytes);
      reused.destroy();
    }
    return (await this.connect()).send(bytes);
  }

  /** Destroys every connection: each exchange in flight ends with an error. */
  close(): void {
    this.closed = true;
    this.idle.length = 0;
    for (const c of this.open) c.destroy(new Error('the load run stopped'));
  }

  release(connection: RawConnection): void {
    if (this.closed) connection.destroy();
    else this.idle.push(connection);
  }

  forget(connection: RawConnection): void {
    this.open.delete(connection);
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
  }

  private bytesOf(method: string, headers: Record<string, string>, body: Buffer | undefined): Buffer {
    const cached = method === 'POST' ? this.built.get(headers) : undefined;
    if (cached && cached.body === body) return cached.bytes;
    let head = `${method} ${this.path} HTTP/1.1\r\nhost: ${this.url.host}\r\n`;
    for (const [name, value] of Object.entries(headers)) {
      if (FRAMING.has(name.toLowerCase())) continue;
      if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) throw new Error(`the header ${JSON.stringify(name)} holds a line break`);
      head += `${name}: ${value}\r\n`;
    }
    if (body) head += `content-length: ${body.length}\r\n`;
    const bytes = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body ?? Buffer.alloc(0)]);
    if (method === 'POST' && body) this.built.set(headers, { body, bytes });
    return bytes;
  }

  private connect(): Promise<RawConnection> {
    if (this.closed) return Promise.reject(new Error('the load run stopped'));
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.url.hostname.replace(/^\[|\]$/g, ''), port: Number(this.url.port || 80) });
      const timer = setTimeout(() => socket.destroy(Object.assign(new Error(`no connection within ${this.timeoutMs} ms`), { code: 'ETIMEDOUT' })), this.timeoutMs);
      const failed = (err: Error) => {
        clearTimeout(timer);
        reject(err);
      };
      socket.once('error', failed);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', failed);
        const connection = new RawConnection(socket, this, this.timeoutMs);
        if (this.closed) {
          connection.destroy();
          return reject(new Error('the load run stopped'));
        }
        this.open.add(connection);
        resolve(connection);
      });
    });
  }
}

const DEFAULT_KEEP_ALIVE_MS = 4_000;

interface Exchange {
  onHead(response: RawResponse): void;
  onError(err: Error): void;
  response?: RawResponse;
}

class RawConnection {
  private readonly parser = new HttpResponseParser();
  private current: Exchange | undefined;
  private gone = false;
  /** When the connection may no longer be reused (set each time it goes idle). */
  private reusableUntil = 0;

  constructor(
    private readonly socket: Socket,
    private readonly pool: RawHttpPool,
    timeoutMs: number,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(timeoutMs, () => this.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.onClose());
  }

  freshAt(now: number): boolean {
    return !this.gone && now < this.reusableUntil;
  }

  send(bytes: Buffer): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      this.current = { onHead: resolve, onError: reject };
      this.socket.write(bytes);
    });
  }

  destroy(err?: Error): void {
    if (!this.gone) {
      this.gone = true;
      this.socket.destroy();
      this.pool.forget(this);
    }
    const exchange = this.current;
    this.current = undefined;
    if (!exchange) return;
    const failure = err ?? new Error('the connection was closed');
    if (exchange.response) exchange.response.fail(failure);
    else exchange.onError(failure);
  }

  private onData(chunk: Buffer): void {
    const exchange = this.current;
    if (!exchange) return this.destroy();
    let events;
    try {
      events = this.parser.push(chunk);
    } catch (err) {
      return this.destroy(err as Error);
    }
    this.apply(exchange, events);
  }

  private apply(exchange: Exchange, events: ReturnType<HttpResponseParser['push']>): void {
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.kind === 'head') {
        exchange.response = new RawResponse(event.status, event.headers, this);
        exchange.onHead(exchange.response);
      } else if (event.kind === 'data') {
        exchange.response?.push(event.data);
      } else {
        this.current = undefined;
        exchange.response?.finish();
        // Bytes past the answer's end were not asked for: the connection cannot be trusted.
        if (event.keepAlive && !exchange.response?.abandoned && i === events.length - 1 && this.parser.idle) {
          this.reusableUntil = performance.now() + keepAliveMs(exchange.response?.headers['keep-alive']);
          this.pool.release(this);
        } else this.destroy();
        return;
      }
    }
  }

  private onClose(): void {
    const exchange = this.current;
    if (exchange) {
      try {
        this.apply(exchange, this.parser.end());
      } catch (err) {
        return this.destroy(err as Error);
      }
    }
    this.destroy(Object.assign(new Error('the server closed the connection before its answer ended'), { code: 'ECONNRESET' }));
  }
}

/** Hints seen (a server sends the same one on every answer), to their reuse time. */
const keepAliveHints = new Map<string, number>();

/** The server's keep-alive hint less a second (RFC 9112 leaves idle time to the server), else 4 s. */
function keepAliveMs(hint: string | undefined): number {
  if (hint === undefined) return DEFAULT_KEEP_ALIVE_MS;
  let ms = keepAliveHints.get(hint);
  if (ms === undefined) {
    const seconds = /(?:^|[,;\s])timeout=(\d+)/i.exec(hint)?.[1];
    ms = seconds !== undefined ? Math.max(0, Number(seconds) * 1000 - 1000) : DEFAULT_KEEP_ALIVE_MS;
    if (keepAliveHints.size < 64) keepAliveHints.set(hint, ms);
  }
  return ms;
}

class RawResponse implements WireResponse {
  private readonly pieces: Buffer[] = [];
  private done = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;
  abandoned = false;

  constructor(
    readonly statusCode: number,
    readonly headers: Record<string, string>,
    private readonly connection: RawConnection,
  ) {}

  push(data: Buffer): void {
    if (!this.abandoned) this.pieces.push(data);
    this.wake?.();
  }

  finish(): void {
    this.done = true;
    this.wake?.();
  }

  fail(err: Error): void {
    if (this.done) return;
    this.error = err;
    this.wake?.();
  }

  async text(): Promise<string> {
    while (!this.done) await this.next();
    return this.pieces.length === 1 ? this.pieces[0]!.toString('utf8') : Buffer.concat(this.pieces).toString('utf8');
  }

  async *chunks(): AsyncIterable<Buffer> {
    try {
      for (;;) {
        while (this.pieces.length > 0) yield this.pieces.shift()!;
        if (this.done) return;
        await this.next();
      }
    } finally {
      if (!this.done) this.abandon();
    }
  }

  discard(): void {
    this.abandoned = true;
    this.pieces.length = 0;
  }

  /** Resolves at the next piece or the end; rejects when the answer broke. */
  private next(): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.wake = () => {
        this.wake = undefined;
        if (this.error) reject(this.error);
        else resolve();
      };
    });
  }

  private abandon(): void {
    this.abandoned = true;
    this.connection.destroy();
  }
}
