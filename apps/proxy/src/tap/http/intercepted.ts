/**
 * The tap's side of intercept rules: the HTTP mechanics of each action (the intercept feature
 * decides which rule acts and keeps the books; compose/ joins them through core/intercept-port.ts).
 * Only requests a rule matched come here; everything else never touches this file.
 *
 * What the client gets for each action:
 * - error / is-error / replace: 200 with a JSON-RPC answer made here; http: that status (and
 *   headers) with a JSON-RPC error body naming the rule. The server never sees the request.
 * - pause (request) / delay: the request reaches the server later (edited, if the user edited it);
 *   a paused request that is dropped gets 202 Accepted and never an answer.
 * - pause (response) / inflate / drop / cut-stream / notify: act on the server's answer (respondActing).
 *
 * Every frame made or changed here is recorded with `http.injected`; the request's frame names the
 * rule (`http.rule`); the original of what was changed goes to the rule's outcome.
 */
import type { ServerResponse } from 'node:http';
import { SseParser, formatSseEvent, type HttpInfo, type JsonObject, type JsonValue, type RuleAction, type SseEvent } from '@mcpscope/protocol';
import type { InterceptDecision } from '../../core/intercept-port.js';
import type { RequestWatch } from '../../core/request-watch.js';
import { capturedHeaders } from '../../upstream/captured-headers.js';
import { headerValue } from '../../upstream/http-headers.js';
import type { UpstreamResponse } from '../../upstream/upstream-request.js';
import type { RecordFrame } from './client-request.js';
import { looksLikeReply } from './request-count.js';

/** A request a rule matched, as it is sent on: edited (with the client's original kept) or not, and what happened to it so far. */
export interface Decided {
  decision: InterceptDecision;
  edited?: string;
  original?: string;
  note: string;
}

export interface Acting extends Decided {
  /** The client request's frame, once recorded. */
  requestSeq: number;
}

/** The actions carried out on the server's answer rather than on the request. */
export function actsOnAnswer(action: RuleAction): boolean {
  return (action.type === 'pause' && action.on === 'response') || action.type === 'inflate' || action.type === 'drop' || action.type === 'cut-stream' || action.type === 'notify';
}

/** Delay or pause a request; `then` gets how it goes on (undefined: dropped). Nothing happens if the client left meanwhile. */
export function holdRequest(decision: InterceptDecision, text: string, sessionKey: string, res: ServerResponse, then: (held: Omit<Decided, 'decision'> | undefined) => void): void {
  const action = decision.action;
  if (action.type === 'delay') {
    const timer = setTimeout(() => res.destroyed || then({ note: `held ${action.ms} ms, then forwarded` }), action.ms);
    res.once('close', () => clearTimeout(timer));
    return;
  }
  void decision.hold({ direction: 'c2s', raw: text, sessionKey }).then((out) => {
    if (res.destroyed) return;
    if (out === null) return then(undefined);
    then(out === text ? { note: 'paused, then forwarded unchanged' } : { edited: out, original: text, note: 'paused, edited, then forwarded' });
  });
}

export interface InPlace {
  res: ServerResponse;
  record: RecordFrame;
  now(): number;
  cors: Record<string, string> | undefined;
  /** The request's HTTP facts (with `rule` set). */
  http: HttpInfo;
  sessionKey: string;
  watch: RequestWatch;
}

/** Answers in the server's place (error, is-error, replace, http), recording the request and the answer made here. */
export function answerInPlace(ctx: InPlace, decision: InterceptDecision, text: string): void {
  const { res, record, now, http, sessionKey } = ctx;
  const requestSeq = record({ ts: now(), sessionKey, direction: 'c2s', transport: 'http-json', kind: 'data', raw: text, http });
  const answer = madeAnswer(decision);
  ctx.watch.answeredByTap('tap');
  if (answer.body === '') {
    res.writeHead(answer.status, { ...ctx.cors, ...answer.headers }).end();
    return decision.done({ sessionKey, requestSeq, deliveredSeq: -1, note: answer.note });
  }
  const headers = { ...ctx.cors, 'content-type': 'application/json', ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) };
  res.writeHead(answer.status, headers).end(answer.body);
  const { requestHeaders: _sent, ...rest } = http;
  const deliveredSeq = record({
    ts: now(),
    sessionKey,
    direction: 's2c',
    transport: 'http-json',
    kind: 'data',
    raw: answer.body,
    http: { ...rest, status: answer.status, responseHeaders: capturedHeaders(headers), injected: { ...decision.mark, what: 'made' } },
  });
  decision.done({ sessionKey, requestSeq, deliveredSeq, note: answer.note });
}

function madeAnswer(decision: InterceptDecision): { status: number; headers: Record<string, string>; body: string; note: string } {
  const { action, rpcId } = decision;
  const id = rpcId ?? null;
  const reply = (payload: { result: JsonValue } | { error: JsonObject }) => JSON.stringify({ jsonrpc: '2.0', id, ...payload });
  if (action.type === 'http') {
    const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `HTTP ${action.status} from an mcpscope rule (${decision.mark.text})` } });
    return { status: action.status, headers: action.headers, body, note: `answered HTTP ${action.status} in the server's place` };
  }
  // A notification has no answer to replace: it is accepted, as a server would.
  if (rpcId === undefined) return { status: 202, headers: {}, body: '', note: `${action.type} does not apply to a notification: answered 202 Accepted in the server's place` };
  switch (action.type) {
    case 'error':
      return { status: 200, headers: {}, body: reply({ error: { code: action.code, message: action.message } }), note: `answered JSON-RPC error ${action.code} in the server's place` };
    case 'is-error':
      return { status: 200, headers: {}, body: reply({ result: { content: [{ type: 'text', text: action.text }], isError: true } }), note: "answered a tool result with isError: true in the server's place" };
    case 'replace':
      return { status: 200, headers: {}, body: reply({ result: action.result }), note: "answered the stored result in the server's place" };
    default:
      throw new Error(`not an in-place action: ${action.type}`);
  }
}

export interface AnswerContext {
  res: ServerResponse;
  record: RecordFrame;
  now(): number;
  /** The answer's HTTP facts as the tap records them. */
  http: HttpInfo;
  /** Headers for the client, already rewritten (origins, CORS). */
  headers: Record<string, string | string[]>;
  sessionKey: string;
  /** Whether the client said it accepts an event stream (notify turns a JSON answer into one). */
  acceptsSse: boolean;
  /** The client left: stop. */
  gone(): boolean;
}

/** Largest answer the tap holds to act on (a bigger one goes through unchanged). */
const MAX_HELD_ANSWER = 64 * 1024 * 1024;

/**
 * The server's answer to a request whose rule acts on answers. Answers that are not 2xx go through
 * as usual (`asUsual`). A JSON answer is held whole, changed and sent; an event stream is re-sent
 * event by event (`id:`, `event:` and `retry:` kept), the reply changed on its way.
 */
export function respondActing(ctx: AnswerContext, acting: Acting, up: UpstreamResponse, asUsual: () => void): void {
  const { decision } = acting;
  const done = (deliveredSeq: number, note: string, original?: string) =>
    decision.done({ sessionKey: ctx.sessionKey, requestSeq: acting.requestSeq, deliveredSeq, note: acting.note ? `${acting.note}; ${note}` : note, ...(original !== undefined ? { original } : {}) });
  if (up.statusCode < 200 || up.statusCode >= 300) {
    asUsual();
    return done(-1, `the server answered HTTP ${up.statusCode}: the rule let it through`);
  }
  const isSse = (headerValue(up.headers, 'content-type') ?? '').startsWith('text/event-stream');
  if (isSse) return actOnStream(ctx, acting, up, done);
  const chunks: Buffer[] = [];
  let size = 0;
  up.body.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= MAX_HELD_ANSWER) chunks.push(c);
  });
  up.body.on('error', () => ctx.res.destroy());
  up.body.on('end', () => {
    if (size > MAX_HELD_ANSWER) {
      ctx.res.destroy();
      return done(-1, 'the answer was larger than the tap holds to act on: the connection was closed');
    }
    const original = Buffer.concat(chunks, size).toString('utf8');
    void changedReply(decision, original, ctx.sessionKey).then((changed) => {
      if (ctx.gone()) return;
      const headers = { ...ctx.headers };
      delete headers['content-length'];
      if (changed === null) {
        ctx.res.writeHead(202, headersWithout(headers, 'content-type')).end();
        return done(-1, "the server's answer was dropped: the client got 202 Accepted and no answer", original);
      }
      if (decision.action.type === 'notify' && ctx.acceptsSse) {
        ctx.res.writeHead(up.statusCode, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const note = sendNotification(ctx, decision);
        ctx.res.end(formatSseEvent({ data: original }));
        const http = { ...ctx.http, responseHeaders: { ...ctx.http.responseHeaders, 'content-type': 'text/event-stream' } };
        ctx.record({ ts: ctx.now(), sessionKey: ctx.sessionKey, direction: 's2c', transport: 'sse', kind: 'data', raw: original, http });
        return done(note, 'sent before the answer, which went as an event stream');
      }
      if (decision.action.type === 'notify' || decision.action.type === 'cut-stream') {
        ctx.res.writeHead(up.statusCode, headers).end(original);
        ctx.record({ ts: ctx.now(), sessionKey: ctx.sessionKey, direction: 's2c', transport: 'http-json', kind: 'data', raw: original, http: ctx.http });
        return done(-1, decision.action.type === 'notify' ? 'the client does not accept an event stream: nothing was sent' : 'the answer was not an event stream: nothing was cut');
      }
      ctx.res.writeHead(up.statusCode, headers).end(changed);
      const what = changed === original ? undefined : ({ ...decision.mark, what: 'changed' } as const);
      const seq = ctx.record({ ts: ctx.now(), sessionKey: ctx.sessionKey, direction: 's2c', transport: 'http-json', kind: 'data', raw: changed, http: what ? { ...ctx.http, injected: what } : ctx.http });
      done(what ? seq : -1, replyNote(decision.action, what !== undefined), what ? original : undefined);
    });
  });
}

function headersWithout(headers: Record<string, string | string[]>, name: string): Record<string, string | string[]> {
  const { [name]: _dropped, ...rest } = headers;
  return rest;
}

function replyNote(action: RuleAction, changed: boolean): string {
  if (action.type === 'inflate') return changed ? `the result was padded to ${action.bytes} bytes` : 'the answer had no result to pad';
  return changed ? 'the answer was paused, edited, then delivered' : 'the answer was paused, then delivered unchanged';
}

/** The reply as delivered: held for a pause, padded for inflate, null when dropped. */
async function changedReply(decision: InterceptDecision, original: string, sessionKey: string): Promise<string | null> {
  const action = decision.action;
  if (action.type === 'drop') return null;
  if (action.type === 'inflate') return inflated(original, action.bytes);
  if (action.type === 'pause') return decision.hold({ direction: 's2c', raw: original, sessionKey });
  return original;
}

/** A result padded with one text item so the whole reply is at least `bytes` long; anything else as it was. */
export function inflated(reply: string, bytes: number): string {
  let value: unknown;
  try {
    value = JSON.parse(reply);
  } catch {
    return reply;
  }
  const message = value as { result?: { content?: unknown } };
  if (typeof message !== 'object' || message === null || typeof message.result !== 'object' || message.result === null) return reply;
  const content = Array.isArray(message.result.content) ? message.result.content : [];
  const missing = Math.max(0, bytes - Buffer.byteLength(reply) - 40);
  message.result.content = [...content, { type: 'text', text: 'x'.repeat(missing) }];
  return JSON.stringify(message);
}

/** Writes the rule's notification as an SSE event and records it as made here; returns its seq. */
function sendNotification(ctx: AnswerContext, decision: InterceptDecision): number {
  const raw = JSON.stringify({ jsonrpc: '2.0', method: (decision.action as { method: string }).method, ...notificationParams(decision) });
  ctx.res.write(formatSseEvent({ data: raw }));
  const http = { ...ctx.http, responseHeaders: { ...ctx.http.responseHeaders, 'content-type': 'text/event-stream' }, injected: { ...decision.mark, what: 'made' as const } };
  return ctx.record({ ts: ctx.now(), sessionKey: ctx.sessionKey, direction: 's2c', transport: 'sse', kind: 'data', raw, http });
}

/** Params a client accepts for the common notifications: progress needs the request's token, a log message a level and data. */
function notificationParams(decision: InterceptDecision): { params?: JsonObject } {
  const method = (decision.action as { method: string }).method;
  if (method === 'notifications/progress') {
    const token = (decision.params?._meta as JsonObject | undefined)?.progressToken;
    return token === undefined ? {} : { params: { progressToken: token, progress: 1, total: 2, message: 'progress sent by an mcpscope rule' } };
  }
  if (method === 'notifications/message') return { params: { level: 'info', logger: 'mcpscope', data: `sent by an mcpscope rule (${decision.mark.text})` } };
  return {};
}

type Done = (deliveredSeq: number, note: string, original?: string) => void;

/** An event stream re-sent event by event, with the rule acting on it. */
function actOnStream(ctx: AnswerContext, acting: Acting, up: UpstreamResponse, done: Done): void {
  const { decision } = acting;
  const action = decision.action;
  const { res } = ctx;
  res.writeHead(up.statusCode, ctx.headers);
  res.flushHeaders();
  const parser = new SseParser({ maxEventChars: MAX_HELD_ANSWER });
  let notified = -1;
  if (action.type === 'notify') notified = sendNotification(ctx, decision);
  let events = 0;
  let finished = false;
  let outcome: { seq: number; note: string; original?: string } | undefined;
  // Events go out in order: a paused reply holds the ones after it.
  let queue = Promise.resolve();
  const finish = (note?: string) => {
    if (finished) return;
    finished = true;
    res.end();
    if (action.type === 'cut-stream') return done(-1, note ?? `the stream ended by itself after ${events} events, before the cut`);
    if (action.type === 'notify') return done(notified, 'sent before the answer');
    done(outcome?.seq ?? -1, outcome?.note ?? 'the stream carried no reply to act on', outcome?.original);
  };
  const deliver = (event: SseEvent, raw: string, injected?: 'changed') => {
    res.write(formatSseEvent({ data: raw, ...(event.event !== undefined ? { event: event.event } : {}), ...(event.id !== undefined ? { id: event.id } : {}), ...(event.retry !== undefined ? { retry: event.retry } : {}) }));
    if (!event.hasData || raw === '') return -1;
    const http: HttpInfo = { ...ctx.http };
    if (event.id !== undefined) http.sseId = event.id;
    if (event.event !== undefined) http.sseEvent = event.event;
    if (injected) http.injected = { ...decision.mark, what: injected };
    return ctx.record({ ts: ctx.now(), sessionKey: ctx.sessionKey, direction: 's2c', transport: 'sse', kind: 'data', raw, http });
  };
  const onEvent = async (event: SseEvent) => {
    if (finished || ctx.gone()) return;
    if (action.type === 'cut-stream') {
      if (events >= action.afterEvents) {
        up.body.destroy();
        return finish(`the stream was cut after ${events} events`);
      }
      if (event.hasData && event.data !== '') events++;
      deliver(event, event.data);
      return;
    }
    if (!event.hasData || !looksLikeReply(event.data) || outcome !== undefined || action.type === 'notify') {
      if (event.hasData && event.data !== '') events++;
      deliver(event, event.data);
      return;
    }
    const changed = await changedReply(decision, event.data, ctx.sessionKey);
    if (ctx.gone()) return;
    if (changed === null) {
      outcome = { seq: -1, note: "the server's reply was dropped from the event stream", original: event.data };
      return;
    }
    const seq = deliver(event, changed, changed === event.data ? undefined : 'changed');
    outcome = changed === event.data ? { seq: -1, note: replyNote(action, false) } : { seq, note: replyNote(action, true), original: event.data };
  };
  const push = (items: ReturnType<SseParser['push']>) => {
    for (const item of items) if (item.type === 'event') queue = queue.then(() => onEvent(item));
  };
  up.body.on('data', (chunk: Buffer) => push(parser.push(chunk)));
  up.body.on('end', () => {
    push(parser.end());
    void queue.then(() => finish());
  });
  up.body.on('error', () => void queue.then(() => finish()));
  if (action.type === 'cut-stream' && action.afterEvents === 0) {
    up.body.destroy();
    finish('the stream was cut before its first event');
  }
}
