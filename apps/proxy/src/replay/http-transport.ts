/**
 * Replay over Streamable HTTP: one POST per message to the configured upstream (the tap's own
 * undici client), the answer read as JSON or as an SSE stream, with notifications and server
 * requests on the way reported as they come. Every frame carries the HTTP exchange it rode on,
 * recorded as the tap records them (lower-cased, secrets redacted).
 */
import { classifyText, idKey, SseParser, type HttpInfo, type Message, transportFrameText } from '@mcpscope/protocol';
import { capturedHeaders } from '../upstream/captured-headers.js';
import { describeError } from '../upstream/failure.js';
import { headerValue } from '../upstream/http-headers.js';
import type { UpstreamRequest, UpstreamResponse } from '../upstream/upstream-request.js';
import type { OutgoingMessage, ReplaySink, ReplayTransport, TransportAnswer } from './replay-transport.js';

export interface HttpTransportDeps {
  upstreamOrigin: string;
  request: UpstreamRequest;
  nextConnectionId(): string;
  now(): number;
}

export class HttpReplayTransport implements ReplayTransport {
  constructor(private readonly deps: HttpTransportDeps) {}

  async send(out: OutgoingMessage, sink: ReplaySink): Promise<TransportAnswer> {
    const url = this.urlOf(out.path);
    const http: HttpInfo = { method: 'POST', path: url.pathname + url.search, requestHeaders: capturedHeaders(out.headers), connectionId: this.deps.nextConnectionId() };
    // The request is stamped when it leaves, as the tap does, so latency includes the server's time.
    const sentAt = this.deps.now();
    let res: UpstreamResponse;
    try {
      res = await this.deps.request(url.href, { method: 'POST', headers: out.headers, body: Buffer.from(out.body, 'utf8'), signal: out.signal });
    } catch (err) {
      sink.frame({ ts: sentAt, direction: 'c2s', kind: 'data', raw: out.body, http });
      if (out.signal.aborted) throw err;
      const message = `upstream unreachable: ${describeError(err)}`;
      sink.frame({ direction: 's2c', kind: 'transport', raw: transportFrameText('upstream-error', message), http: { ...http, status: 502 } });
      return { failure: { kind: 'unreachable', message } };
    }
    sink.frame({ ts: sentAt, direction: 'c2s', kind: 'data', raw: out.body, http });
    const responseHttp: HttpInfo = { method: 'POST', path: http.path, status: res.statusCode, responseHeaders: capturedHeaders(res.headers), connectionId: http.connectionId! };
    const answer: TransportAnswer = { status: res.statusCode };
    const sessionId = headerValue(res.headers, 'mcp-session-id');
    if (sessionId) answer.sessionId = sessionId;
    const contentType = headerValue(res.headers, 'content-type') ?? '';

    try {
      if (res.statusCode === 404 && out.headers['mcp-session-id'] !== undefined && !contentType.startsWith('text/event-stream')) {
        // Legacy era: 404 on a request carrying a session id means the server forgot the session.
        const body = await readText(res);
        const message = `the upstream no longer knows session ${out.headers['mcp-session-id']} (HTTP 404${body ? `: ${body.slice(0, 200)}` : ''})`;
        // The server's own answer (an id-null JSON-RPC error, as SDK servers send) is recorded as
        // it came, so the exchange shows what the server said; only a body that is no JSON-RPC
        // message becomes a transport failure.
        const said = classifyText(body);
        if (said.kind === 'error' || said.kind === 'response') sink.frame({ direction: 's2c', kind: 'data', raw: body, http: responseHttp });
        else sink.frame({ direction: 's2c', kind: 'transport', raw: transportFrameText('stream-error', message), http: responseHttp });
        return { ...answer, failure: { kind: 'session_expired', message } };
      }
      if (contentType.startsWith('text/event-stream')) {
        await readSse(res, out.id, sink, responseHttp, answer);
      } else {
        const text = await readText(res);
        if (text.length > 0) {
          sink.frame({ direction: 's2c', kind: 'data', raw: text, http: responseHttp });
          const msg = classifyText(text);
          if (answers(msg, out.id)) answer.answer = JSON.parse(text);
          else if (unknownSession(res.statusCode, msg, out)) {
            const message = `the upstream no longer knows session ${out.headers['mcp-session-id']} (HTTP 400 ${msg.kind === 'error' ? `${msg.error.code} ${msg.error.message}` : ''}; the spec answers 404 here)`;
            return { ...answer, failure: { kind: 'session_expired', message } };
          }
        }
      }
    } catch (err) {
      if (out.signal.aborted) throw err;
      const message = `the response broke: ${describeError(err)}`;
      sink.frame({ direction: 's2c', kind: 'transport', raw: transportFrameText('stream-error', message), http: responseHttp });
      return { ...answer, failure: { kind: 'unreachable', message } };
    }
    return answer;
  }

  async endSession(path: string, headers: Record<string, string>): Promise<void> {
    if (headers['mcp-session-id'] === undefined) return;
    const res = await this.deps.request(this.urlOf(path).href, { method: 'DELETE', headers, body: undefined, signal: AbortSignal.timeout(2_000) });
    res.body.resume();
  }

  async listen(path: string, headers: Record<string, string>, sink: ReplaySink, signal: AbortSignal): Promise<boolean> {
    const url = this.urlOf(path);
    const sent: Record<string, string> = { ...headers, accept: 'text/event-stream' };
    delete sent['content-type'];
    const connectionId = this.deps.nextConnectionId();
    let res: UpstreamResponse;
    try {
      res = await this.deps.request(url.href, { method: 'GET', headers: sent, body: undefined, signal });
    } catch {
      return false;
    }
    if (res.statusCode !== 200 || !(headerValue(res.headers, 'content-type') ?? '').startsWith('text/event-stream')) {
      res.body.resume();
      return false;
    }
    const http: HttpInfo = { method: 'GET', path: url.pathname + url.search, status: res.statusCode, requestHeaders: capturedHeaders(sent), responseHeaders: capturedHeaders(res.headers), connectionId };
    void readSse(res, undefined, sink, http, {}).catch(() => {});
    return true;
  }

  private urlOf(path: string): URL {
    const url = new URL(path, this.deps.upstreamOrigin);
    // A captured path such as `//elsewhere/x` would change the origin: never leave the upstream.
    if (url.origin !== this.deps.upstreamOrigin) throw new Error(`refusing to send outside the upstream: ${url.origin}`);
    return url;
  }
}

async function readText(res: UpstreamResponse): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads an event stream until the answer to `id` is in (or, with no id, until it ends). */
async function readSse(res: UpstreamResponse, id: string | number | undefined, sink: ReplaySink, responseHttp: HttpInfo, answer: TransportAnswer): Promise<void> {
  const parser = new SseParser();
  const onItems = (items: ReturnType<SseParser['push']>): boolean => {
    for (const item of items) {
      if (item.type !== 'event' || !item.hasData || item.data === '') continue;
      const frameHttp: HttpInfo = { ...responseHttp };
      if (item.id !== undefined) frameHttp.sseId = item.id;
      if (item.event !== undefined) frameHttp.sseEvent = item.event;
      sink.frame({ direction: 's2c', kind: 'data', raw: item.data, http: frameHttp });
      const msg = classifyText(item.data);
      if (msg.kind === 'request') sink.serverRequest(msg);
      if (answers(msg, id)) {
        answer.answer = JSON.parse(item.data);
        return true;
      }
    }
    return false;
  };
  try {
    for await (const chunk of res.body) {
      // The stream belongs to this one request: once its answer is in, stop reading.
      if (onItems(parser.push(chunk as Buffer))) return;
    }
    onItems(parser.end());
  } finally {
    res.body.destroy();
  }
}

/**
 * A server that answers a request on a session it does not know with 400 and an id-less -32000
 * (the SDK's app-level routing, server-everything among them) instead of the spec's 404.
 */
function unknownSession(status: number, msg: Message, out: OutgoingMessage): boolean {
  return status === 400 && out.headers['mcp-session-id'] !== undefined && msg.kind === 'error' && msg.id === null && msg.error.code === -32000 && !isInitialize(out.body);
}

function isInitialize(body: string): boolean {
  const sent = classifyText(body);
  return sent.kind === 'request' && sent.method === 'initialize';
}

function answers(msg: Message, id: string | number | undefined): boolean {
  return id !== undefined && (msg.kind === 'response' || msg.kind === 'error') && msg.id !== null && idKey(msg.id) === idKey(id);
}
