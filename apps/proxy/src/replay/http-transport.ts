/**
 * Replay over Streamable HTTP: one POST per message to the configured upstream, the answer read
 * as JSON or as an SSE stream (notifications and server requests on the way are reported as they
 * come). Every frame is reported with the HTTP exchange it rode on, as the tap records them.
 */
import { classifyText, idKey, SseParser, type HttpInfo, type Message } from '@mcpscope/protocol';
import { redactedHeaders } from '../security/redact.js';
import { describeError } from '../tap/failure.js';
import type { UpstreamFetch } from './upstream-fetch.js';
import type { OutgoingMessage, ReplaySink, ReplayTransport, TransportAnswer } from './replay-transport.js';

export interface HttpTransportDeps {
  upstreamOrigin: string;
  fetch: UpstreamFetch;
  nextConnectionId(): string;
  now(): number;
}

export class HttpReplayTransport implements ReplayTransport {
  constructor(private readonly deps: HttpTransportDeps) {}

  async send(out: OutgoingMessage, sink: ReplaySink): Promise<TransportAnswer> {
    const url = new URL(out.path, this.deps.upstreamOrigin);
    // A captured path such as `//elsewhere/x` would change the origin: never leave the upstream.
    if (url.origin !== this.deps.upstreamOrigin) throw new Error(`refusing to send outside the upstream: ${url.origin}`);
    const http: HttpInfo = { method: 'POST', path: url.pathname + url.search, requestHeaders: redactedHeaders(new Headers(out.headers)), connectionId: this.deps.nextConnectionId() };
    // The request is stamped when it leaves, as the tap does, so latency includes the server's time.
    const sentAt = this.deps.now();
    let res: Response;
    try {
      res = await this.deps.fetch(url.href, { method: 'POST', headers: out.headers, body: out.body, signal: out.signal });
    } catch (err) {
      sink.frame({ ts: sentAt, direction: 'c2s', kind: 'data', raw: out.body, http });
      if (out.signal.aborted) throw err;
      const message = `upstream unreachable: ${describeError(err)}`;
      sink.frame({ direction: 's2c', kind: 'transport', raw: JSON.stringify({ event: 'upstream-error', message }), http: { ...http, status: 502 } });
      return { failure: { kind: 'unreachable', message } };
    }
    sink.frame({ ts: sentAt, direction: 'c2s', kind: 'data', raw: out.body, http });
    const responseHttp: HttpInfo = { method: 'POST', path: http.path, status: res.status, responseHeaders: redactedHeaders(res.headers), connectionId: http.connectionId! };
    const answer: TransportAnswer = { status: res.status };
    const sessionId = res.headers.get('mcp-session-id');
    if (sessionId) answer.sessionId = sessionId;
    const contentType = res.headers.get('content-type') ?? '';

    if (res.status === 404 && out.headers['mcp-session-id'] !== undefined && !contentType.startsWith('text/event-stream')) {
      // Legacy era: 404 on a request carrying a session id means the server forgot the session.
      const body = await res.text().catch(() => '');
      const message = `the upstream no longer knows session ${out.headers['mcp-session-id']} (HTTP 404${body ? `: ${body.slice(0, 200)}` : ''})`;
      sink.frame({ direction: 's2c', kind: 'transport', raw: JSON.stringify({ event: 'session-expired', message }), http: responseHttp });
      return { ...answer, failure: { kind: 'session_expired', message } };
    }
    if (!res.body) return answer;
    try {
      if (contentType.startsWith('text/event-stream')) await readSse(res.body, out, sink, responseHttp, answer);
      else {
        const text = await res.text();
        if (text.length > 0) {
          sink.frame({ direction: 's2c', kind: 'data', raw: text, http: responseHttp });
          const msg = classifyText(text);
          if (answers(msg, out.id)) answer.answer = JSON.parse(text);
        }
      }
    } catch (err) {
      if (out.signal.aborted) throw err;
      const message = `the response broke: ${describeError(err)}`;
      sink.frame({ direction: 's2c', kind: 'transport', raw: JSON.stringify({ event: 'stream-error', message }), http: responseHttp });
      return { ...answer, failure: { kind: 'unreachable', message } };
    }
    return answer;
  }

  async endSession(path: string, headers: Record<string, string>): Promise<void> {
    if (headers['mcp-session-id'] === undefined) return;
    const url = new URL(path, this.deps.upstreamOrigin);
    if (url.origin !== this.deps.upstreamOrigin) return;
    const res = await this.deps.fetch(url.href, { method: 'DELETE', headers, signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
  }
}

async function readSse(body: ReadableStream<Uint8Array>, out: OutgoingMessage, sink: ReplaySink, responseHttp: HttpInfo, answer: TransportAnswer): Promise<void> {
  const parser = new SseParser();
  const reader = body.getReader();
  const onItems = (items: ReturnType<SseParser['push']>): boolean => {
    for (const item of items) {
      if (item.type !== 'event' || !item.hasData || item.data === '') continue;
      const frameHttp: HttpInfo = { ...responseHttp };
      if (item.id !== undefined) frameHttp.sseId = item.id;
      if (item.event !== undefined) frameHttp.sseEvent = item.event;
      sink.frame({ direction: 's2c', kind: 'data', raw: item.data, http: frameHttp });
      const msg = classifyText(item.data);
      if (msg.kind === 'request') sink.serverRequest(msg);
      if (answers(msg, out.id)) {
        answer.answer = JSON.parse(item.data);
        return true;
      }
    }
    return false;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        onItems(parser.end());
        return;
      }
      // The stream belongs to this one request: once its answer is in, stop reading.
      if (onItems(parser.push(value))) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function answers(msg: Message, id: string | number | undefined): boolean {
  return id !== undefined && (msg.kind === 'response' || msg.kind === 'error') && msg.id !== null && idKey(msg.id) === idKey(id);
}
