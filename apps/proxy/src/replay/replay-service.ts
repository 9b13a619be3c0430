/**
 * Replays a client→server message and captures what happens like any other traffic (frames
 * recorded with transport `replay`, paired by the same deriver), linking the new exchange to its
 * original as its request frame is recorded (so it is stored and pushed with `replayOf`).
 * `session` goes into the live session with its id, version and credentials; `fresh` first opens
 * mcpscope's own session (see fresh-session.ts). Ids on the wire are always `mcpscope-replay-<n>`,
 * which no real client's in-flight id can equal.
 */
import { isImportedSession, isTerminal, type ExchangeSummary, type FrameInput, type JsonObject, type ReplayInput, type ReplayInputAnswer, type ReplayLinks, type ReplayResponse, type ServerAnswerDefaults, transportFrameText } from '@mcpscope/protocol';
import type { CapturePipeline } from '../capture/capture-pipeline.js';
import type { SessionCredentials } from './credentials.js';
import { openFreshSession, type SessionOpener } from './fresh-session.js';
import { fail, ok, type Result } from './replay-errors.js';
import type { ReplayBody } from './replay-body.js';
import type { ReplayInputs } from './replay-inputs.js';
import { planReplay } from './replay-plan.js';
import { fallbackNote, liveSessionOf, redirect, type SessionFallback } from './session-fallback.js';
import type { ReplayStore } from './replay-store.js';
import type { Channel, ReplaySink, ReplayTransport, TransportAnswer, WireFrame } from './replay-transport.js';
import { wireHeaders } from '../upstream/wire-headers.js';
import { REDACTED } from '../redaction/redact.js';
import { DASHBOARD_LINK } from '../capture/replay-links.js';

export const REPLAY_ID_PREFIX = 'mcpscope-replay-';
export const DEFAULT_REPLAY_TIMEOUT_MS = 5 * 60_000;

export interface ReplayServiceDeps {
  store: ReplayStore;
  pipeline: Pick<CapturePipeline, 'record' | 'onBatch' | 'whenWritten'>;
  credentials: SessionCredentials;
  transport: ReplayTransport;
  inputs: ReplayInputs;
  upstreamPath: string;
  now(): number;
  /** How long a replay may wait for its answer before it is abandoned as a transport error. */
  timeoutMs?: number;
}

/** What a replay would send, for "copy as curl": the request, and which headers are secrets. */
export interface WireRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Headers whose values are credentials (held in memory, missing, or redacted in the capture). */
  secretNames: string[];
  /** The credentials mcpscope holds for the session, by header name. */
  credentials: Record<string, string>;
}

export class ReplayService implements SessionOpener {
  private counter: number;
  private fresh = 0;
  /** Sessions mcpscope opened for `fresh` replays, ended (DELETE) on shutdown. */
  private readonly owned: Channel[] = [];
  /** Stops the event streams `listen` opened. */
  private readonly listening = new AbortController();

  constructor(readonly deps: ReplayServiceDeps) {
    // Seeded from the capture's head so ids stay unique across restarts on the same capture file.
    this.counter = deps.store.head();
  }

  nextId(): string {
    return `${REPLAY_ID_PREFIX}${++this.counter}`;
  }

  /** A session key for a fresh replay whose server mints no session id (stateless era). */
  freshKey(): string {
    return `mcpscope-replay:fresh-${++this.fresh}`;
  }

  get transport(): ReplayTransport {
    return this.deps.transport;
  }

  adopt(channel: Channel, from: string | undefined): void {
    if (from !== undefined) this.deps.credentials.share(from, channel.sessionKey);
    this.owned.push(channel);
  }

  recordHeld(channel: Channel, frames: readonly WireFrame[]): Promise<ExchangeSummary | undefined> {
    let first: number | undefined;
    const sink = this.sink(channel, (seq) => (first ??= seq));
    for (const frame of frames) sink.frame(frame);
    return first === undefined ? Promise.resolve(undefined) : this.finished(String(first));
  }

  /** What a replay of `body` would send, without sending it. */
  wireRequest(body: ReplayBody): Result<WireRequest> {
    const planned = planReplay(body, this.deps);
    if (!planned.ok) return planned;
    const { message, wire, path } = planned.value;
    const { headers, missingCredentials } = wireHeaders(message, wire);
    const secretNames = [...missingCredentials, ...Object.keys(wire.credentials)];
    for (const [name, value] of Object.entries(wire.captured ?? {})) if (value.includes(REDACTED)) secretNames.push(name);
    return ok({ path, headers, body: JSON.stringify(message), secretNames: [...new Set(secretNames)], credentials: wire.credentials });
  }

  /** The replay links of an exchange; undefined when there is no such exchange. */
  links(exchangeId: string): ReplayLinks | undefined {
    return this.deps.store.links(exchangeId);
  }

  /** The tools of the session's latest `tools/list`, for the composer. */
  tools(sessionKey: string): JsonObject[] {
    return this.deps.store.tools(sessionKey);
  }

  /** Server requests (sampling, elicitation, roots) waiting for the user's answer. */
  pendingInputs(): ReplayInput[] {
    return this.deps.inputs.list();
  }

  answerInput(key: string, answer: ReplayInputAnswer): Promise<Result<void>> {
    return this.deps.inputs.answer(key, answer);
  }

  /**
   * Listens on the channel's own event stream (a session mcpscope drives), recording what comes
   * and holding the server's requests for the user like those that come during a replay.
   * Resolves once the server has answered the GET: true when the stream is open.
   */
  async listen(channel: Channel): Promise<boolean> {
    const listen = this.deps.transport.listen?.bind(this.deps.transport);
    if (!listen || this.listening.signal.aborted) return false;
    const { headers } = wireHeaders({ jsonrpc: '2.0', method: 'x' }, channel.wire);
    return listen(channel.path, headers, this.sink(channel), this.listening.signal);
  }

  /** The unattended answers (server-answers.ts); kinds left out wait for the user. */
  get serverAnswers(): ServerAnswerDefaults {
    return this.deps.inputs.answers;
  }

  set serverAnswers(defaults: ServerAnswerDefaults) {
    this.deps.inputs.answers = defaults;
  }

  /** Ends the sessions mcpscope opened and declines what still waits for the user. */
  async close(): Promise<void> {
    this.listening.abort();
    await this.deps.inputs.close();
    const end = this.deps.transport.endSession?.bind(this.deps.transport);
    if (end) await Promise.allSettled(this.owned.map((c) => end(c.path, wireHeaders({ jsonrpc: '2.0', method: 'x' }, c.wire).headers)));
  }

  async replay(body: ReplayBody, signal: AbortSignal): Promise<Result<ReplayResponse>> {
    const planned = planReplay(body, this.deps);
    if (!planned.ok) return planned;
    let plan = planned.value;
    // An imported session (mcpscope import, a HAR) was recorded elsewhere: no server holds it, so
    // nothing is sent into it. (Copy as curl still writes its command: the user decides where.)
    if (plan.mode === 'session' && plan.sessionKey !== undefined && isImportedSession(plan.sessionKey)) {
      return fail('imported_session', `Session ${plan.sessionKey} was imported from a file: no live server knows it, so nothing can be sent into it. Replay in a fresh session instead: mcpscope opens its own session with the server it proxies.`, { retryWith: 'fresh' });
    }
    const message: JsonObject = { ...plan.message };
    let sentId = 'id' in message ? this.nextId() : undefined;
    if (sentId !== undefined) message.id = sentId;

    // A session the capture saw the server forget: its conversation's newest live session instead.
    let fallback: SessionFallback | undefined;
    const gone = plan.mode === 'session' ? plan.session : undefined;
    if (gone && (gone.expired || gone.ended)) {
      const to = liveSessionOf(this.deps.store, gone, new Set([gone.sessionKey]));
      if (to) {
        fallback = fallbackNote(gone, to, gone.ended ? 'it was ended' : 'the server answered a request on it as a session it no longer knows');
        plan = redirect(plan, to, this.deps.credentials);
      }
    }
    let channel: Channel;
    if (plan.mode === 'session') {
      channel = { sessionKey: plan.sessionKey!, path: plan.path, wire: plan.wire };
    } else {
      const opened = await openFreshSession(plan, this, signal);
      if (!opened.ok) return opened;
      channel = opened.value;
    }
    const link = plan.original ? { replayOf: plan.original.exchange.id, mode: plan.mode } : undefined;
    let result = await this.send(channel, message, signal, link);
    // The server forgot the session just now: once more, into the conversation's newest live one.
    if (!result.ok && result.error.code === 'session_expired' && gone && !fallback) {
      const to = liveSessionOf(this.deps.store, gone, new Set([gone.sessionKey]));
      if (to) {
        fallback = fallbackNote(gone, to, 'the server no longer knew it when the replay arrived');
        plan = redirect(plan, to, this.deps.credentials);
        channel = { sessionKey: plan.sessionKey!, path: plan.path, wire: plan.wire };
        if (sentId !== undefined) message.id = sentId = this.nextId();
        result = await this.send(channel, message, signal, link);
      }
    }
    if (!result.ok) return result;
    const exchange = result.value;
    const response: ReplayResponse = { exchange, mode: plan.mode, sessionKey: channel.sessionKey };
    if (fallback) response.sessionFallback = fallback;
    const { missingCredentials } = wireHeaders(message, channel.wire);
    if (missingCredentials.length > 0) {
      response.warnings = [`The client sent ${missingCredentials.join(', ')}, which mcpscope keeps in memory only and no longer has (it restarted since): the replay went without ${missingCredentials.length === 1 ? 'it' : 'them'}.`];
    }
    if (sentId !== undefined) response.sentId = sentId;
    if (plan.original) response.replayOf = plan.original.exchange.id;
    return ok(response);
  }

  /**
   * Sends one message on a channel, records every frame, and returns its exchange once finished.
   * Failures still return the captured exchange inside the error. With `link`, the exchange is
   * linked to the one it replays as soon as its request frame has a seq: the pipeline writes that
   * frame later in the tick, so the summary is stored and broadcast with `replayOf` from the start.
   * A link without `replayOf` links the exchange to itself (what the dashboard sent from nothing).
   */
  async send(channel: Channel, message: JsonObject, signal: AbortSignal, link?: { replayOf?: string; mode: string }): Promise<Result<ExchangeSummary>> {
    const body = JSON.stringify(message);
    const { headers } = wireHeaders(message, channel.wire);
    const abort = AbortSignal.any([signal, AbortSignal.timeout(this.deps.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS)]);
    let requestSeq: number | undefined;
    let connectionId: string | undefined;
    const sink = this.sink(channel, (seq, frame) => {
      if (requestSeq === undefined && frame.direction === 'c2s' && frame.kind === 'data') {
        requestSeq = seq;
        connectionId = frame.http?.connectionId;
        // seq is -1 once the pipeline has shut down: nothing is stored, so there is nothing to link.
        if (link && seq > 0) this.deps.store.link(String(seq), link.replayOf ?? String(seq), link.mode, this.deps.now());
      }
    });
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
    let answer: TransportAnswer | 'abandoned';
    try {
      answer = await this.deps.transport.send({ body, headers, path: channel.path, signal: abort, ...(id !== undefined ? { id } : {}) }, sink);
    } catch (err) {
      if (!abort.aborted) throw err;
      answer = 'abandoned';
    }
    if (requestSeq === undefined) return fail('upstream_unreachable', 'The message could not be sent.');
    const exchangeId = String(requestSeq);
    const http = { method: 'POST', path: channel.path, ...(connectionId ? { connectionId } : {}) };
    if (answer !== 'abandoned' && id !== undefined && answer.answer === undefined && !answer.failure) {
      if (answer.status === 202) {
        // Accepted, answered on another stream (HTTP+SSE): complete when the tap captures it.
        const ex = await this.finished(exchangeId, abort);
        if (ex && isTerminal(ex.status)) return ok(ex);
        answer = 'abandoned';
      } else {
        const text = `the server ended its answer (HTTP ${answer.status ?? '?'}) without a response to ${JSON.stringify(id)}`;
        sink.frame({ direction: 's2c', kind: 'transport', raw: transportFrameText('stream-error', text), http });
        return fail('no_answer', text, withExchange(await this.finished(exchangeId)));
      }
    }
    if (answer === 'abandoned') {
      const left = signal.aborted;
      const text = left ? 'the dashboard stopped waiting; the replay was abandoned' : `no answer within ${Math.round((this.deps.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS) / 1000)} s; mcpscope gave up on the replay`;
      const event = left ? 'client-disconnected' : 'replay-timeout';
      sink.frame({ direction: left ? 'c2s' : 's2c', kind: 'transport', raw: transportFrameText(event, text), http });
      return fail('no_answer', text, withExchange(await this.finished(exchangeId)));
    }
    const exchange = await this.finished(exchangeId);
    if (!exchange) return fail('no_answer', 'The replay was sent but its exchange was not captured.');
    if (answer.failure?.kind === 'unreachable') return fail('upstream_unreachable', `The upstream could not be reached: ${answer.failure.message}`, { exchange });
    if (answer.failure?.kind === 'session_expired') {
      return fail('session_expired', `The session has expired: ${answer.failure.message}. Replay it in a fresh session instead.`, { exchange, retryWith: 'fresh' });
    }
    return ok(exchange);
  }

  /**
   * A sink that records frames on the channel's session and holds server requests for the user.
   * A transport reports a server request right after the frame that carried it, so that frame's
   * seq names the request's exchange; the answer is labelled as the dashboard's before it is sent.
   */
  sink(channel: Channel, onRecorded: (seq: number, frame: WireFrame) => void = () => {}): ReplaySink {
    let lastSeq = -1;
    return {
      frame: (frame) => {
        const input: FrameInput = { ts: frame.ts ?? this.deps.now(), sessionKey: channel.sessionKey, direction: frame.direction, transport: 'replay', kind: frame.kind, raw: frame.raw };
        if (frame.http) input.http = frame.http;
        lastSeq = this.deps.pipeline.record(input);
        onRecorded(lastSeq, frame);
      },
      serverRequest: (request) => {
        const exchangeId = lastSeq > 0 ? String(lastSeq) : undefined;
        this.deps.inputs.add(
          channel.sessionKey,
          request,
          async (response) => {
            if (exchangeId !== undefined) this.deps.store.link(exchangeId, exchangeId, DASHBOARD_LINK, this.deps.now());
            const text = JSON.stringify(response);
            const { headers } = wireHeaders(response, channel.wire);
            await this.deps.transport.send({ body: text, headers, path: channel.path, signal: AbortSignal.timeout(30_000) }, this.sink(channel));
          },
          exchangeId,
        );
      },
    };
  }

  /** The exchange once the pipeline has stored it; with `until`, once it has finished (or `until` aborts). */
  private finished(id: string, until?: AbortSignal): Promise<ExchangeSummary | undefined> {
    return new Promise((resolve) => {
      // The frames recorded so far are stored (maybe on the tick writer's thread) before this reads.
      void this.deps.pipeline.whenWritten().then(() => {
        const now = this.deps.store.exchange(id);
        if (!until || until.aborted || (now && isTerminal(now.status))) return resolve(now);
        const stop = this.deps.pipeline.onBatch(() => {
          const ex = this.deps.store.exchange(id);
          if (ex && isTerminal(ex.status)) {
            stop();
            resolve(ex);
          }
        });
        until.addEventListener('abort', () => {
          stop();
          resolve(this.deps.store.exchange(id));
        }, { once: true });
      });
    });
  }
}

const withExchange = (exchange: ExchangeSummary | undefined) => (exchange ? { exchange } : {});
