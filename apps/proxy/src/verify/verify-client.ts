/**
 * The client side of `mcpscope verify`: one POST per captured message to the live server, the
 * answer read as one JSON body or as the request's SSE stream, server requests on that stream
 * answered through a callback (verify answers them the way the captured client did), and the
 * session id and negotiated revision kept for the requests that follow.
 *
 * Sends the captured message text as captured (only the ids verify must own are changed by the
 * caller), so the live server is asked exactly what it was asked before. Never throws for what a
 * server does: every way a call can end is a value. A hostile server gets no more than the call's
 * limits (call-scope.ts): time, bytes read, server requests answered.
 */
import { classifyText, idKey, SseParser, type JsonObject, type JsonRpcId, type RequestMessage } from '@mcpscope/protocol';
import { describeError } from '../upstream/failure.js';
import { headerValue } from '../upstream/http-headers.js';
import type { UpstreamRequest, UpstreamResponse } from '../upstream/upstream-request.js';
import { wireHeaders } from '../upstream/wire-headers.js';
import { CallScope, type VerifyLimits } from './call-scope.js';

export interface PostOutcome {
  /** The JSON-RPC answer to the request, when one came. */
  answer?: JsonObject;
  /** How the call failed in transport (unreachable, HTTP error without a JSON-RPC body, stream cut). */
  failure?: string;
  /** The server could not be reached at all (connection refused, DNS): verify cannot run against it. */
  unreachable?: boolean;
  status?: number;
  sessionId?: string;
  /** Secret headers the captured client sent (redacted in the capture) that no `--header` supplied. */
  missingCredentials?: string[];
  /** The whole run's time (`--max-time`) ended the call: it did not finish, nothing to compare. */
  runOut?: boolean;
  /** Server requests sent during the call past `maxServerRequests`, left unanswered. */
  serverRequestsUnanswered?: number;
}

export interface VerifyClientOptions {
  /** The live MCP endpoint. */
  url: URL;
  request: UpstreamRequest;
  /** `--header` values: credentials and anything else the captured client sent that was redacted. */
  headers: Record<string, string>;
  limits: VerifyLimits;
  /** Aborts when the whole run's time is up: every call in flight ends, none starts. */
  runSignal?: AbortSignal;
}

export type ServerRequestHandler = (request: RequestMessage) => JsonObject;

export class VerifyClient {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** The standalone GET stream, while it is open (`listen`). */
  private listening: AbortController | undefined;
  /** Replies to the stream's server requests still on their way. */
  private readonly streamReplies = new Set<Promise<unknown>>();

  constructor(private readonly options: VerifyClientOptions) {}

  get limits(): VerifyLimits {
    return this.options.limits;
  }

  /** The whole run's time is up: no call should start. */
  get runOver(): boolean {
    return this.options.runSignal?.aborted ?? false;
  }

  /**
   * Sends one message. For a request, resolves with its answer; for a notification or a reply,
   * once the server accepted it. `captured` are the captured client's headers (secrets redacted).
   */
  async post(message: JsonObject, captured: Record<string, string> | undefined, onServerRequest: ServerRequestHandler, inputSchema?: JsonObject): Promise<PostOutcome> {
    const scope = new CallScope(this.options.limits, this.options.runSignal);
    try {
      const out = await this.send(message, captured, onServerRequest, scope, inputSchema);
      const failure = scope.failure();
      if (failure !== undefined && out.answer === undefined) {
        out.failure = failure;
        delete out.unreachable;
      }
      if (scope.end === 'max-time' && out.answer === undefined) out.runOut = true;
      if (scope.unanswered > 0) out.serverRequestsUnanswered = scope.unanswered;
      return out;
    } finally {
      scope.dispose();
    }
  }

  private async send(message: JsonObject, captured: Record<string, string> | undefined, onServerRequest: ServerRequestHandler, scope: CallScope, inputSchema?: JsonObject): Promise<PostOutcome> {
    const { headers, missingCredentials } = wireHeaders(message, {
      credentials: this.options.headers,
      ...(captured ? { captured } : {}),
      ...(this.sessionId !== undefined ? { sessionId: this.sessionId } : {}),
      ...(this.protocolVersion !== undefined ? { protocolVersion: this.protocolVersion } : {}),
      ...(inputSchema ? { inputSchema } : {}),
    });
    const id = isRequestId(message.id) && typeof message.method === 'string' ? message.id : undefined;
    const signal = scope.signal;
    let res: UpstreamResponse;
    try {
      res = await this.options.request(this.options.url.href, { method: 'POST', headers, body: Buffer.from(JSON.stringify(message), 'utf8'), signal });
    } catch (err) {
      return signal.aborted ? {} : { failure: `unreachable: ${describeError(err)}`, unreachable: true };
    }
    const out: PostOutcome = { status: res.statusCode };
    if (missingCredentials.length > 0) out.missingCredentials = missingCredentials;
    const sessionId = headerValue(res.headers, 'mcp-session-id');
    if (sessionId !== undefined) out.sessionId = sessionId;
    const contentType = headerValue(res.headers, 'content-type') ?? '';
    try {
      if (contentType.startsWith('text/event-stream')) {
        const answer = await this.readStream(res, id, onServerRequest, captured, scope);
        if (answer) out.answer = answer;
        else if (id !== undefined) out.failure = `the server ended its stream (HTTP ${res.statusCode}) without answering`;
        return out;
      }
      const text = await readText(res, scope);
      const parsed = text === '' ? undefined : classifyText(text);
      if (parsed && (parsed.kind === 'response' || parsed.kind === 'error')) out.answer = JSON.parse(text) as JsonObject;
      else if (id !== undefined) out.failure = `HTTP ${res.statusCode}${text ? `: ${text.slice(0, 200)}` : ' with no body'}`;
      else if (res.statusCode >= 400) out.failure = `HTTP ${res.statusCode}`;
      return out;
    } catch (err) {
      return signal.aborted ? out : { ...out, failure: `the answer broke: ${describeError(err)}` };
    }
  }

  /**
   * Opens the session's standalone GET stream, as an SDK client does after
   * `notifications/initialized`, and answers the server requests that come on it through
   * `onServerRequest` (at most `maxServerRequests` of them; the rest are left unanswered). A
   * server that offers no stream (405) or fails to open one changes nothing: verify goes on.
   */
  listen(onServerRequest: ServerRequestHandler): void {
    if (this.sessionId === undefined || this.listening) return;
    const controller = new AbortController();
    this.listening = controller;
    const signal = this.options.runSignal ? AbortSignal.any([controller.signal, this.options.runSignal]) : controller.signal;
    const headers: Record<string, string> = { ...this.options.headers, accept: 'text/event-stream', 'mcp-session-id': this.sessionId };
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    void (async () => {
      const res = await this.options.request(this.options.url.href, { method: 'GET', headers, body: undefined, signal });
      if (res.statusCode !== 200 || !(headerValue(res.headers, 'content-type') ?? '').startsWith('text/event-stream')) return void res.body.resume();
      const parser = new SseParser({ maxEventChars: this.options.limits.maxAnswerBytes });
      let answered = 0;
      for await (const chunk of res.body) {
        for (const item of parser.push(chunk as Buffer)) {
          if (item.type !== 'event' || !item.hasData) continue;
          const message = classifyText(item.data);
          if (message.kind !== 'request' || answered >= this.options.limits.maxServerRequests) continue;
          answered++;
          const reply = this.post(onServerRequest(message), undefined, onServerRequest).finally(() => this.streamReplies.delete(reply));
          this.streamReplies.add(reply);
        }
      }
    })().catch(() => {
      // The stream is the server's to offer and to end; no verdict depends on it.
    });
  }

  /** Ends a session the server opened (DELETE), as a polite client does. */
  async end(): Promise<void> {
    await Promise.all(this.streamReplies);
    this.listening?.abort();
    this.listening = undefined;
    if (this.sessionId === undefined) return;
    const headers: Record<string, string> = { ...this.options.headers, 'mcp-session-id': this.sessionId };
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    try {
      const signal = this.options.runSignal ? AbortSignal.any([AbortSignal.timeout(5_000), this.options.runSignal]) : AbortSignal.timeout(5_000);
      const res = await this.options.request(this.options.url.href, { method: 'DELETE', headers, body: undefined, signal });
      res.body.resume();
    } catch {
      // The verdicts are in; a server that will not end its session changes none of them.
    }
  }

  private async readStream(res: UpstreamResponse, id: JsonRpcId | undefined, onServerRequest: ServerRequestHandler, captured: Record<string, string> | undefined, scope: CallScope): Promise<JsonObject | undefined> {
    // One event never holds more than the call may read at all.
    const parser = new SseParser({ maxEventChars: scope.limits.maxAnswerBytes });
    const replies: Promise<unknown>[] = [];
    let answer: JsonObject | undefined;
    const take = (items: ReturnType<SseParser['push']>) => {
      for (const item of items) {
        if (item.type !== 'event' || !item.hasData || item.data === '') continue;
        const message = classifyText(item.data);
        if (message.kind === 'request') {
          // Answered while the call is open: the server may wait for it before it answers.
          // Replies share the call's scope: their streams count against the same limits.
          if (scope.mayAnswer()) replies.push(this.send(onServerRequest(message), captured, onServerRequest, scope));
        } else if ((message.kind === 'response' || message.kind === 'error') && id !== undefined && message.id !== null && idKey(message.id) === idKey(id)) {
          answer = JSON.parse(item.data) as JsonObject;
        }
      }
    };
    try {
      for await (const chunk of res.body) {
        if (!scope.read((chunk as Buffer).length)) break;
        take(parser.push(chunk as Buffer));
        if (answer) break;
      }
      if (!answer && scope.end === undefined) take(parser.end());
    } finally {
      res.body.destroy();
    }
    await Promise.all(replies);
    return answer;
  }
}

function isRequestId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || typeof v === 'number';
}

/** The whole body, or as much as the call's byte limit allows (then the scope has ended the call). */
async function readText(res: UpstreamResponse, scope: CallScope): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of res.body) {
      if (!scope.read((chunk as Buffer).length)) return '';
      chunks.push(chunk as Buffer);
    }
  } finally {
    res.body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}
