/**
 * Exposes a stdio MCP server as Streamable HTTP at the tap's MCP path, so an HTTP client (or
 * ChatGPT through a tunnel) can reach a local stdio server. Each POST's message goes to the
 * child's stdin as one line; each stdout line is recorded and routed back: a response to the
 * POST stream that asked for it, a progress notification to the stream of its request, anything
 * else (log messages, server requests such as sampling) to the client's GET stream, or to an open
 * POST stream when there is none. POSTs carrying requests are answered with SSE, or with JSON for
 * a client that accepts only JSON.
 *
 * One child is one MCP peer: the bridge mints no session id, and a client that initializes again
 * talks to the same process. Frames carry the connection id of the process, so the child's exit
 * fails every request still waiting on it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_CAPTURED_BODY_BYTES } from '../http/capped-text.js';
import { classifyText, idKey, isJsonObject, type FrameInput, type HttpInfo, type JsonRpcId, type LineItem, type Message, transportFrameText } from '@mcpscope/protocol';
import { capturedHeaders } from '../../upstream/captured-headers.js';

export interface BridgeDeps {
  record(frame: FrameInput): number;
  now(): number;
  mcpPath: string;
}

export interface ChildPort {
  readonly pid: number;
  readonly alive: boolean;
  write(line: string): void;
}

interface PostStream {
  res: ServerResponse;
  cors: Record<string, string> | undefined;
  sse: boolean;
  batch: boolean;
  /** The child answered the batch with one array line, so the JSON body is that line. */
  arrayAnswer?: boolean;
  pending: Set<string>;
  tokens: string[];
  answers: string[];
}

export class StdioBridge {
  private readonly byId = new Map<string, PostStream>();
  private readonly byToken = new Map<string, PostStream>();
  private readonly open = new Set<PostStream>();
  private getStream: ServerResponse | undefined;
  private child!: ChildPort;
  private exitReason: string | undefined;

  constructor(private readonly deps: BridgeDeps) {}

  attach(child: ChildPort): void {
    this.child = child;
  }

  get sessionKey(): string {
    return `stdio:${this.child.pid}`;
  }

  private get connectionId(): string {
    return `stdio-${this.child.pid}`;
  }

  handle(req: IncomingMessage, res: ServerResponse, cors: Record<string, string> | undefined): void {
    if (req.method === 'POST') {
      // A stdio message is one line the child must read whole: past the cap it is refused, not
      // held (a body longer than a string can be would otherwise end the process).
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_CAPTURED_BODY_BYTES) chunks.push(c);
        else chunks.length = 0;
      });
      req.on('end', () => {
        if (size <= MAX_CAPTURED_BODY_BYTES) return this.post(req, res, cors, Buffer.concat(chunks, size).toString('utf8'));
        res.writeHead(413, { ...cors, 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `mcpscope: a request of ${size} bytes is more than the stdio bridge passes to the server (${MAX_CAPTURED_BODY_BYTES} bytes)` } }));
      });
      req.on('error', () => {});
      return;
    }
    if (req.method === 'GET') return this.get(req, res, cors);
    // A stdio server outlives HTTP sessions: there is no session to delete.
    res.writeHead(405, { ...cors, allow: 'GET, POST', 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: this stdio server has no HTTP session to end' } }));
  }

  /** One stdout line of the child. */
  serverLine(line: LineItem): void {
    this.deps.record({ ts: this.deps.now(), sessionKey: this.sessionKey, direction: 's2c', transport: 'stdio', kind: 'data', raw: line.text, http: this.frameHttp() });
    const message = classifyText(line.text);
    const first = message.kind === 'batch' ? message.items[0] : message;
    if (first && (first.kind === 'response' || first.kind === 'error') && first.id !== null) {
      const stream = this.byId.get(idKey(first.id));
      if (stream) {
        // A batch answer (2025-03-26) settles every id it carries, in one line.
        if (message.kind === 'batch') {
          stream.arrayAnswer = true;
          for (const item of message.items.slice(1)) {
            if ((item.kind === 'response' || item.kind === 'error') && item.id !== null && this.byId.get(idKey(item.id)) === stream) {
              stream.pending.delete(idKey(item.id));
              this.byId.delete(idKey(item.id));
            }
          }
        }
        return this.answer(stream, idKey(first.id), line.text);
      }
      // Its client has gone: an answer belongs on its own request's stream or nowhere.
      return;
    }
    const token = progressTokenOf(first);
    const own = token !== undefined ? this.byToken.get(token) : undefined;
    if (own?.sse && this.open.has(own)) return writeEvent(own.res, line.text);
    if (this.getStream) return writeEvent(this.getStream, line.text);
    const latest = lastOf(this.open);
    if (latest?.sse) writeEvent(latest.res, line.text);
    // Nobody listening: the line is in the capture, as it would be on a real stdio pipe.
  }

  /** One stderr line: kept beside the frames as a log line. */
  logLine(line: LineItem): void {
    this.deps.record({ ts: this.deps.now(), sessionKey: this.sessionKey, direction: 's2c', transport: 'stdio', kind: 'log', raw: line.text });
  }

  /** The child ended: record it and give every waiting client a well-formed answer. */
  childExited(description: string): void {
    this.exitReason = description;
    this.deps.record({ ts: this.deps.now(), sessionKey: this.sessionKey, direction: 's2c', transport: 'stdio', kind: 'transport', raw: transportFrameText('child-exited', description), http: this.frameHttp() });
    for (const stream of [...this.open]) {
      for (const id of [...stream.pending]) this.answer(stream, id, errorLine(JSON.parse(id) as JsonRpcId, `mcpscope: ${description}`));
    }
    this.getStream?.end();
    this.getStream = undefined;
  }

  private post(req: IncomingMessage, res: ServerResponse, cors: Record<string, string> | undefined, text: string): void {
    const message = classifyText(text);
    const requests = (message.kind === 'batch' ? message.items : [message]).filter((m) => m.kind === 'request');
    if (!this.child.alive) {
      const first = requests[0];
      const body = errorLine(first && first.kind === 'request' ? first.id : null, `mcpscope: ${this.exitReason ?? 'the stdio server is not running'}`);
      res.writeHead(502, { ...cors, 'content-type': 'application/json' }).end(body);
      return;
    }
    // stdio frames one message per line: a pretty-printed body must become one line.
    const line = /[\r\n]/.test(text) ? oneLine(text) : text;
    this.deps.record({ ts: this.deps.now(), sessionKey: this.sessionKey, direction: 'c2s', transport: 'stdio', kind: 'data', raw: line, http: { ...this.frameHttp(), requestHeaders: capturedHeaders(req.headers) } });
    if (requests.length === 0) {
      this.child.write(line);
      res.writeHead(202, { ...cors }).end();
      return;
    }
    const sse = (req.headers.accept ?? '').includes('text/event-stream');
    const stream: PostStream = { res, cors, sse, batch: message.kind === 'batch', pending: new Set(), tokens: [], answers: [] };
    for (const r of requests) {
      if (r.kind !== 'request') continue;
      const key = idKey(r.id);
      stream.pending.add(key);
      this.byId.set(key, stream);
      const token = progressTokenOf(r);
      if (token !== undefined) {
        stream.tokens.push(token);
        this.byToken.set(token, stream);
      }
    }
    this.open.add(stream);
    res.on('close', () => this.forget(stream));
    if (sse) {
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
      res.flushHeaders();
    }
    // Registered before writing: a fast child may answer before this function returns.
    this.child.write(line);
  }

  private get(req: IncomingMessage, res: ServerResponse, cors: Record<string, string> | undefined): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      res.writeHead(406, { ...cors, 'content-type': 'text/plain' }).end('Not Acceptable: the GET stream needs Accept: text/event-stream');
      return;
    }
    // One GET stream at a time; a reconnecting client replaces its old one.
    this.getStream?.end();
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    this.getStream = res;
    res.on('close', () => {
      if (this.getStream === res) this.getStream = undefined;
    });
  }

  private answer(stream: PostStream, id: string, line: string): void {
    stream.pending.delete(id);
    this.byId.delete(id);
    if (stream.sse) writeEvent(stream.res, line);
    else stream.answers.push(line);
    if (stream.pending.size > 0) return;
    this.forget(stream);
    if (stream.sse) stream.res.end();
    else {
      const body = stream.batch && !stream.arrayAnswer ? `[${stream.answers.join(',')}]` : stream.answers[0]!;
      stream.res.writeHead(200, { ...stream.cors, 'content-type': 'application/json' }).end(body);
    }
  }

  private forget(stream: PostStream): void {
    if (!this.open.delete(stream)) return;
    for (const id of stream.pending) if (this.byId.get(id) === stream) this.byId.delete(id);
    for (const token of stream.tokens) if (this.byToken.get(token) === stream) this.byToken.delete(token);
  }

  private frameHttp(): HttpInfo {
    return { method: 'POST', path: this.deps.mcpPath, connectionId: this.connectionId };
  }
}

function writeEvent(res: ServerResponse, line: string): void {
  if (!res.writableEnded) res.write(`event: message\ndata: ${line}\n\n`);
}

function oneLine(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\r?\n|\r/g, ' ');
  }
}

function errorLine(id: JsonRpcId | null, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message } });
}

function progressTokenOf(message: Message | undefined): string | undefined {
  if (!message || (message.kind !== 'request' && message.kind !== 'notification')) return undefined;
  const params = message.params;
  const token = message.kind === 'notification' ? params?.progressToken : isJsonObject(params?._meta) ? params._meta.progressToken : undefined;
  return typeof token === 'string' || typeof token === 'number' ? idKey(token) : undefined;
}

function lastOf<T>(set: Set<T>): T | undefined {
  let last: T | undefined;
  for (const item of set) last = item;
  return last;
}
