/**
 * The wire of `mcpscope load`: one POST per step on a keep-alive pool of its own (raw sockets
 * for http:, raw-http-pool.ts; undici for https:), the answer read as one JSON body or as the
 * request's SSE stream, and classified
 * as an outcome (ok, protocol error, business error, transport error). Server requests on an
 * answer's stream (sampling, elicitation) are answered as the captured client answered them in
 * that call, else with a JSON-RPC error; nothing waits on a standalone GET stream.
 *
 * Timeouts are the pool's (headers and body), not a signal per request: a load generator must
 * cost far less per call than the server it measures. Stopping destroys the pool, which ends
 * every request in flight.
 */
import { answerAsCaptured, classifyText, idKey, isJsonObject, outcomeOf, SseParser, type CallOutcome, type CassetteCall, type JsonObject } from '@mcpscope/protocol';
import { Agent, request } from 'undici';
import { describeError } from '../upstream/failure.js';
import { headerValue } from '../upstream/http-headers.js';
import { RawHttpPool, type WireResponse } from './raw-http-pool.js';

export interface PostResult {
  outcome: CallOutcome;
  /** HTTP status, when an answer came. */
  status?: number;
  sessionId?: string;
  /** A 3xx answer's Location (the target moved: load does not follow). */
  redirect?: string;
  /** No connection could be made at all (refused, DNS). */
  refused?: boolean;
}

interface Pool {
  request(method: 'POST' | 'DELETE', headers: Record<string, string>, body?: Buffer): Promise<WireResponse>;
  close(): Promise<void> | void;
}

export class LoadWire {
  private readonly pool: Pool;

  constructor(
    readonly url: string,
    timeoutMs: number,
    concurrency: number,
  ) {
    const target = new URL(url);
    this.pool = target.protocol === 'http:' ? new RawHttpPool(target, timeoutMs) : new UndiciPool(url, timeoutMs, concurrency);
  }

  /** Sends one message; for a request, resolves with its outcome (never throws). */
  async post(body: Buffer, headers: Record<string, string>, expectsAnswer: boolean, call: CassetteCall | undefined): Promise<PostResult> {
    let res;
    try {
      res = await this.pool.request('POST', headers, body);
    } catch (err) {
      const code = (err as { code?: string }).code;
      return { outcome: outcomeOf(undefined, describeError(err)), refused: code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' };
    }
    const out: PostResult = { outcome: outcomeOf(undefined, 'no answer'), status: res.statusCode };
    const sessionId = headerValue(res.headers, 'mcp-session-id');
    if (sessionId !== undefined) out.sessionId = sessionId;
    if (res.statusCode >= 300 && res.statusCode < 400) {
      res.discard();
      out.redirect = headerValue(res.headers, 'location') ?? '(no Location)';
      out.outcome = outcomeOf(undefined, `HTTP ${res.statusCode} redirect to ${out.redirect}`);
      return out;
    }
    try {
      if ((headerValue(res.headers, 'content-type') ?? '').startsWith('text/event-stream')) {
        const answer = await this.readStream(res.chunks(), body, headers, call);
        out.outcome = outcomeOf(answer, answer ? undefined : `the server ended its stream (HTTP ${res.statusCode}) without answering`);
        return out;
      }
      const text = await res.text();
      if (!expectsAnswer) {
        out.outcome = outcomeOf({}, res.statusCode >= 400 ? `HTTP ${res.statusCode}` : undefined);
        return out;
      }
      const answer = parseAnswer(text);
      out.outcome = answer ? outcomeOf(answer) : outcomeOf(undefined, `HTTP ${res.statusCode}${text ? `: ${text.slice(0, 200)}` : ' with no body'}`);
    } catch (err) {
      out.outcome = outcomeOf(undefined, `the answer broke: ${describeError(err)}`);
    }
    return out;
  }

  /** Ends a session the server opened (DELETE), as a polite client does; never throws. */
  async end(sessionId: string, protocolVersion: string | undefined, headers: Record<string, string>): Promise<void> {
    try {
      const res = await this.pool.request('DELETE', { ...headers, 'mcp-session-id': sessionId, ...(protocolVersion !== undefined ? { 'mcp-protocol-version': protocolVersion } : {}) });
      await res.text();
    } catch {
      // The session's calls are counted; a server that will not end it changes none of them.
    }
  }

  /** Ends every request in flight and the pool's connections. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  private async readStream(stream: AsyncIterable<Buffer>, body: Buffer, headers: Record<string, string>, call: CassetteCall | undefined): Promise<JsonObject | undefined> {
    const id = idOf(body);
    const parser = new SseParser();
    const replies: Promise<unknown>[] = [];
    const answering = answerAsCaptured(call, [], 'mcpscope load');
    for await (const chunk of stream) {
      for (const item of parser.push(chunk)) {
        if (item.type !== 'event' || !item.hasData || item.data === '') continue;
        const message = classifyText(item.data);
        if (message.kind === 'request') replies.push(this.post(Buffer.from(JSON.stringify(answering(message))), headers, false, undefined));
        else if ((message.kind === 'response' || message.kind === 'error') && message.id !== null && id !== undefined && idKey(message.id) === id) {
          await Promise.all(replies);
          return JSON.parse(item.data) as JsonObject;
        }
      }
    }
    await Promise.all(replies);
    return undefined;
  }
}

/** The https: wire: undici's pool, its answers seen as `WireResponse`s. */
class UndiciPool implements Pool {
  private readonly agent: Agent;

  constructor(
    private readonly url: string,
    timeoutMs: number,
    concurrency: number,
  ) {
    // Two connections per virtual client: its call, and a reply to a server request made while
    // that call's stream is open. Without a cap, a request sent the moment the previous answer
    // ended finds its connection not yet free and opens another, and the pool churns.
    this.agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 4_000, connections: concurrency * 2, pipelining: 1 });
  }

  async request(method: 'POST' | 'DELETE', headers: Record<string, string>, body?: Buffer): Promise<WireResponse> {
    const res = await request(this.url, { method, headers, ...(body ? { body } : {}), dispatcher: this.agent });
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    return { statusCode: res.statusCode, headers: flat, text: () => res.body.text(), chunks: () => res.body, discard: () => void res.body.resume() };
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => {});
  }
}

/** A JSON-RPC answer (an object with `result` or `error`), or undefined for anything else. */
function parseAnswer(text: string): JsonObject | undefined {
  if (text === '') return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return isJsonObject(value) && ('result' in value || 'error' in value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The request id of an encoded request, as `idKey` spells it. */
function idOf(body: Buffer): string | undefined {
  const message = classifyText(body.toString('utf8'));
  return message.kind === 'request' ? idKey(message.id) : undefined;
}
