/**
 * Plays one captured call back to a live client: the server's traffic during the call
 * (progress, log messages, sampling or elicitation requests) in capture order at its captured
 * offset from the request (divided by `speed`; 0 sends at once), then the captured answer, as an
 * SSE stream when the server streamed it and as one JSON body when it did not.
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
import type { MockSession } from './mock-sessions.js';

export interface PlaybackOptions {
  /** 1 = the captured timing, 2 = twice as fast, 0 = no waiting at all. */
  speed: number;
  /** How long to wait for the client's reply to a server request before going on without it. */
  replyTimeoutMs: number;
  /** Extra headers for every answer (CORS, the session id on initialize). */
  headers: Record<string, string>;
}

export interface LiveRequest {
  id: JsonRpcId;
  params?: JsonObject;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

export async function playCall(call: CassetteCall, live: LiveRequest, session: MockSession, res: ServerResponse, options: PlaybackOptions): Promise<void> {
  const start = performance.now();
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  const stream = { destroy: () => res.destroy() };
  session.streams.add(stream);
  try {
    if (!call.stream) {
      await sleepUntil(start + scaled(call.answerOffsetMs ?? 0, options.speed), gone.signal);
      if (gone.signal.aborted) return;
      const { status, body } = call.answer ? { status: call.httpStatus ?? 200, body: withId(call.answer, live.id) } : failureBody(call, live.id);
      const text = JSON.stringify(body);
      res.writeHead(status, { ...options.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
      return;
    }
    res.writeHead(200, { ...options.headers, ...SSE_HEADERS });
    res.flushHeaders();
    let shift = 0;
    const token = progressToken(live.params);
    for (const event of call.events) {
      await sleepUntil(start + scaled(event.offsetMs, options.speed) + shift, gone.signal);
      if (gone.signal.aborted) return;
      if (event.kind === 'notification') {
        const message = retokened(event.message, token);
        if (message) send(res, message);
        continue;
      }
      const id = session.serverRequestId();
      const replied = session.awaitReply(id, AbortSignal.any([gone.signal, AbortSignal.timeout(options.replyTimeoutMs)]));
      send(res, { ...event.message, id });
      await replied;
      if (gone.signal.aborted) return;
      // The rest keeps its captured distance from the reply, however late the live reply came.
      if (event.reply) shift = Math.max(shift, performance.now() - (start + scaled(event.reply.offsetMs, options.speed)));
    }
    await sleepUntil(start + scaled(call.answerOffsetMs ?? 0, options.speed) + shift, gone.signal);
    if (gone.signal.aborted) return;
    if (call.answer) {
      send(res, withId(call.answer, live.id));
      res.end();
    } else {
      // The capture saw this stream break before its answer: so does the client.
      res.destroy();
    }
  } finally {
    session.streams.delete(stream);
  }
}

/** The answer to give when the capture holds none: the transport failure it recorded. */
export function failureBody(call: CassetteCall, id: JsonRpcId): { status: number; body: JsonObject } {
  const why = call.failure ?? 'no answer was captured';
  return { status: call.httpStatus && call.httpStatus >= 400 ? call.httpStatus : 502, body: { jsonrpc: '2.0', id, error: { code: -32000, message: `mcpscope mock: the capture recorded a transport failure here: ${why}` } } };
}

function send(res: ServerResponse, message: JsonObject): void {
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

function scaled(ms: number, speed: number): number {
  return speed <= 0 ? 0 : ms / speed;
}

/** Waits until the `performance.now()` time `at`; returns at once when it has passed or `signal` aborts. */
function sleepUntil(at: number, signal: AbortSignal): Promise<void> {
  const wait = at - performance.now();
  if (wait <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, wait);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
