/**
 * Plays one captured call back to a live client: the server's traffic during the call
 * (progress, log messages, sampling or elicitation requests) in capture order at its captured
 * offset from the request (divided by `speed`; 0 sends at once), then the captured answer, as an
 * SSE stream when the server streamed it and as one JSON body when it did not (over HTTP+SSE,
 * all of it as events on the session's stream).
 *
 * What is rewritten, and only that: the answer carries the live request's id; progress
 * notifications carry the live request's progress token (and are left out when the client asked
 * for none); a server request gets an id fresh in the session, and the mock waits for the
 * client's reply before it goes on (the captured gap after the reply is kept, so a slow client
 * shifts the rest instead of squeezing it). A call the capture saw fail in transport fails the
 * same way: a 502 before any byte, or a stream cut after its events.
 */
import type { ServerResponse } from 'node:http';
import { isJsonObject, type CassetteCall, type JsonObject, type JsonRpcId } from '@mcpscope/protocol';
import type { MockSession, SessionStream } from './mock-sessions.js';
import { scaled, sleepUntil } from './mock-timing.js';

export interface PlaybackOptions {
  /** 1 = the captured timing, 2 = twice as fast, 0 = no waiting at all. */
  speed: number;
  /** How long to wait for the client's reply to a server request before going on without it. */
  replyTimeoutMs: number;
}

export interface LiveRequest {
  id: JsonRpcId;
  params?: JsonObject;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

/**
 * Where one call's answer goes. Over Streamable HTTP, the POST's own response (one JSON body or
 * an SSE stream); over HTTP+SSE, the session's stream (the POST itself was accepted with 202).
 */
export interface AnswerChannel {
  /** Aborts when the answer can no longer reach the client. */
  readonly gone: AbortSignal;
  /** The whole answer as one JSON body, with the captured HTTP status. */
  json(status: number, body: JsonObject): void;
  /** The answer streams: events follow, then `end` or `cut`. */
  open(): void;
  event(message: JsonObject): void;
  end(): void;
  /** The capture saw this stream break before its answer: so does the client. */
  cut(): void;
}

/** The POST's own response as the channel (Streamable HTTP). */
export function responseChannel(res: ServerResponse, session: MockSession, headers: Record<string, string>): AnswerChannel {
  const gone = new AbortController();
  const stream = { destroy: () => res.destroy() };
  session.streams.add(stream);
  res.once('close', () => {
    session.streams.delete(stream);
    gone.abort();
  });
  return {
    gone: gone.signal,
    json(status, body) {
      const text = JSON.stringify(body);
      res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
    },
    open() {
      res.writeHead(200, { ...headers, ...SSE_HEADERS });
      res.flushHeaders();
    },
    event: (message) => writeEvent(res, message),
    end: () => res.end(),
    cut: () => res.destroy(),
  };
}

/** The session's HTTP+SSE stream as the channel: every message of the call is an event on it. */
export function sessionChannel(session: MockSession, log: (line: string) => void): AnswerChannel {
  return {
    gone: session.ended,
    json: (_status, body) => session.push(body),
    open: () => {},
    event: (message) => session.push(message),
    end: () => {},
    cut: () => log('· the capture saw the stream break before this answer; none is sent'),
  };
}

export async function playCall(call: CassetteCall, live: LiveRequest, session: MockSession, channel: AnswerChannel, options: PlaybackOptions): Promise<void> {
  const start = performance.now();
  const gone = channel.gone;
  if (!call.stream) {
    await sleepUntil(start + scaled(call.answerOffsetMs ?? 0, options.speed), gone);
    if (gone.aborted) return;
    const { status, body } = call.answer ? { status: call.httpStatus ?? 200, body: withId(call.answer, live.id) } : failureBody(call, live.id);
    channel.json(status, body);
    return;
  }
  channel.open();
  let shift = 0;
  const token = progressToken(live.params);
  for (const event of call.events) {
    await sleepUntil(start + scaled(event.offsetMs, options.speed) + shift, gone);
    if (gone.aborted) return;
    if (event.kind === 'notification') {
      const message = retokened(event.message, token);
      if (message) channel.event(message);
      continue;
    }
    const id = session.serverRequestId();
    const replied = session.awaitReply(id, AbortSignal.any([gone, AbortSignal.timeout(options.replyTimeoutMs)]));
    channel.event({ ...event.message, id });
    await replied;
    if (gone.aborted) return;
    // The rest keeps its captured distance from the reply, however late the live reply came.
    if (event.reply) shift = Math.max(shift, performance.now() - (start + scaled(event.reply.offsetMs, options.speed)));
  }
  await sleepUntil(start + scaled(call.answerOffsetMs ?? 0, options.speed) + shift, gone);
  if (gone.aborted) return;
  if (call.answer) {
    channel.event(withId(call.answer, live.id));
    channel.end();
  } else {
    channel.cut();
  }
}

/** The answer to give when the capture holds none: the transport failure it recorded. */
export function failureBody(call: CassetteCall, id: JsonRpcId): { status: number; body: JsonObject } {
  const why = call.failure ?? 'no answer was captured';
  return { status: call.httpStatus && call.httpStatus >= 400 ? call.httpStatus : 502, body: { jsonrpc: '2.0', id, error: { code: -32000, message: `mcpscope mock: the capture recorded a transport failure here: ${why}` } } };
}

function writeEvent(res: ServerResponse, message: JsonObject): void {
  res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function withId(message: JsonObject, id: JsonRpcId): JsonObject {
  return { ...message, id };
}

function progressToken(params: JsonObject | undefined): string | number | undefined {
  const meta = params?._meta;
  const token = isJsonObject(meta) ? meta.progressToken : undefined;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** A progress notification for the live request's token; undefined when it asked for no progress. */
function retokened(message: JsonObject, token: string | number | undefined): JsonObject | undefined {
  if (message.method !== 'notifications/progress' || !isJsonObject(message.params)) return message;
  if (token === undefined) return undefined;
  return { ...message, params: { ...message.params, progressToken: token } };
}

/** An SSE response as a session's own stream (the standalone GET stream, or the HTTP+SSE stream). */
export function sseStream(res: ServerResponse): SessionStream {
  return { send: (message) => writeEvent(res, message) };
}
