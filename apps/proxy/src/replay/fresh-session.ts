/**
 * Opens mcpscope's own session with the upstream for a `fresh` replay, presenting itself as the
 * captured client: `initialize` with its clientInfo, capabilities and negotiated revision (so
 * capability-gated tools exist), then `notifications/initialized`. In the 2026-07-28 era there
 * is no handshake: each request carries its own `_meta`, so a fresh replay simply has no session.
 *
 * A session that listens has its own event stream open before `notifications/initialized` is
 * sent: servers ask `roots/list` as soon as they see it, on that stream, and drop the ask when
 * no stream is open (the official SDK's Streamable HTTP server does).
 */
import { isJsonObject, type ExchangeSummary, type JsonObject } from '@mcpscope/protocol';
import { fail, ok, type Result } from './replay-errors.js';
import type { ReplayPlan } from './replay-plan.js';
import type { Channel, ReplayTransport, WireFrame } from './replay-transport.js';
import { wireHeaders, type WireContext } from '../upstream/wire-headers.js';

/** What opening a session needs from the replay service, and nothing more. */
export interface SessionOpener {
  transport: ReplayTransport;
  nextId(): string;
  /** A session key for a server that mints no session id. */
  freshKey(): string;
  /** Records frames held until the session key was known; the exchange of the first, once stored. */
  recordHeld(channel: Channel, frames: readonly WireFrame[]): Promise<ExchangeSummary | undefined>;
  /** Takes the channel as mcpscope's own (ended on shutdown), with the credentials of `from`. */
  adopt(channel: Channel, from: string | undefined): void;
  send(channel: Channel, message: JsonObject, signal: AbortSignal): Promise<Result<ExchangeSummary>>;
  /** Opens the channel's own event stream; resolves once the server has answered the GET. */
  listen(channel: Channel): Promise<boolean>;
}

/**
 * How long `initialized` waits for the event stream's answer. A server that holds the GET's
 * headers until its first event must not stall the session: past this, `initialized` goes anyway.
 */
export const STREAM_OPEN_WAIT_MS = 5_000;

/** What mcpscope offers when the captured session never said (a message composed from scratch). */
export const FALLBACK_PROTOCOL_VERSION = '2025-11-25';
const FALLBACK_CLIENT: JsonObject = { name: 'mcpscope', version: '0.1.0' };

/** `listen`: the session also listens on its own event stream (server requests outside any call). */
export async function openFreshSession(plan: ReplayPlan, service: SessionOpener, signal: AbortSignal, listen = false): Promise<Result<Channel>> {
  const base: WireContext = { credentials: plan.wire.credentials };
  if (plan.wire.captured) base.captured = plan.wire.captured;
  if (plan.wire.inputSchema) base.inputSchema = plan.wire.inputSchema;
  if (plan.modern) {
    const channel: Channel = { sessionKey: service.freshKey(), path: plan.path, wire: base };
    if (listen) void service.listen(channel);
    return ok(channel);
  }

  const init: JsonObject = {
    jsonrpc: '2.0',
    id: service.nextId(),
    method: 'initialize',
    params: {
      protocolVersion: plan.session?.protocolVersion ?? FALLBACK_PROTOCOL_VERSION,
      capabilities: plan.session?.clientCapabilities ?? {},
      clientInfo: plan.session?.clientInfo ?? FALLBACK_CLIENT,
    },
  };
  // The session key is known only from the answer: hold the handshake's frames until then.
  const held: WireFrame[] = [];
  const answer = await service.transport.send(
    { body: JSON.stringify(init), id: init.id as string, headers: wireHeaders(init, base).headers, path: plan.path, signal },
    { frame: (f) => held.push(f), serverRequest: () => {} },
  );
  const channel: Channel = { sessionKey: answer.sessionId ?? service.freshKey(), path: plan.path, wire: { ...base } };
  const initExchange = service.recordHeld(channel, held);
  if (answer.failure) {
    const exchange = await initExchange;
    return fail('upstream_unreachable', `The upstream could not be reached to open a fresh session: ${answer.failure.message}`, exchange ? { exchange } : {});
  }
  const result = isJsonObject(answer.answer) && isJsonObject(answer.answer.result) ? answer.answer.result : undefined;
  if (!result) {
    const why = isJsonObject(answer.answer) && isJsonObject(answer.answer.error) ? String(answer.answer.error.message) : `HTTP ${answer.status ?? '?'}`;
    return fail('fresh_session_failed', `The upstream refused to open a fresh session: ${why}`);
  }
  if (answer.sessionId !== undefined) channel.wire.sessionId = answer.sessionId;
  if (typeof result.protocolVersion === 'string') channel.wire.protocolVersion = result.protocolVersion;
  service.adopt(channel, plan.sessionKey);
  if (listen) await untilSettledOr(service.listen(channel), STREAM_OPEN_WAIT_MS);
  const initialized = await service.send(channel, { jsonrpc: '2.0', method: 'notifications/initialized' }, signal);
  if (!initialized.ok) return initialized;
  return ok(channel);
}

/** Waits for `promise` to settle, or `ms`, whichever comes first. */
async function untilSettledOr(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([promise.then(() => {}, () => {}), bound]);
  clearTimeout(timer);
}
