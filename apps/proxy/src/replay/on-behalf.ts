/**
 * Sending for something other than the user's own replay click — a widget preview calling a tool,
 * or reading the widget resource the capture lacks — through the same machinery: planned like a
 * replay, captured like any traffic, linked to the exchange it was sent for (with its own link
 * mode), into the captured session itself or into a fresh session mcpscope opens.
 *
 * Fresh sessions are labelled as what they are (the clientInfo title and User-Agent mcpscope
 * presents), may advertise more client capabilities than the captured client did (a widget host
 * speaks MCP Apps), and are shared by every message with the same `channelKey`, as a real host
 * keeps one connection open per widget instead of one per call.
 */
import { isImportedSession, type JsonObject, type ReplayResponse } from '@mcpscope/protocol';
import { openFreshSession } from './fresh-session.js';
import { fail, ok, type Result } from './replay-errors.js';
import { planReplay, type ReplayPlan } from './replay-plan.js';
import type { ReplayService } from './replay-service.js';
import type { Channel } from './replay-transport.js';
import type { ReplayMode } from './replay-body.js';

export interface OnBehalf {
  /** The session whose client mcpscope presents itself as; in `session` mode, the one it sends into. */
  sessionKey?: string;
  mode: ReplayMode;
  /** The new exchange is linked to this one (to itself when absent), with this link mode. */
  linkTo?: string;
  linkMode: string;
  /** `fresh`: messages with the same key share one session, opened by the first. */
  channelKey?: string;
  /** `fresh`: the clientInfo title and User-Agent product the new session presents. */
  label?: string;
  /** `fresh`: capabilities added to the captured client's (e.g. the MCP Apps extension). */
  extraCapabilities?: JsonObject;
  /** `fresh`: also listen on the new session's own event stream (server requests outside any call). */
  listen?: boolean;
}

/** Fresh channels by key, dropped when the service closes (the sessions themselves are owned by it). */
export class BehalfChannels {
  private readonly channels = new Map<string, Channel>();
  private readonly opening = new Map<string, Promise<Result<Channel>>>();

  constructor(private readonly service: ReplayService) {}

  async send(message: JsonObject, on: OnBehalf, signal: AbortSignal): Promise<Result<ReplayResponse>> {
    const channel = await this.channel(message, on, signal);
    if (!channel.ok) return channel;
    const plan = channel.value.plan;
    const sent: JsonObject = { ...plan.message };
    const sentId = 'id' in sent ? this.service.nextId() : undefined;
    if (sentId !== undefined) sent.id = sentId;
    // The fresh channel was planned for the first message: its tool schema may be another tool's.
    const wire = { ...channel.value.wire };
    if (plan.wire.inputSchema) wire.inputSchema = plan.wire.inputSchema;
    else delete wire.inputSchema;
    const { sessionKey, path } = channel.value;
    const result = await this.service.send({ sessionKey, path, wire }, sent, signal, { ...(on.linkTo !== undefined ? { replayOf: on.linkTo } : {}), mode: on.linkMode });
    if (!result.ok) return result;
    const response: ReplayResponse = { exchange: result.value, mode: on.mode, sessionKey };
    if (sentId !== undefined) response.sentId = sentId;
    return ok(response);
  }

  /** Where `message` goes for `on` (opening the fresh session if it is not open yet), and its plan. */
  async channel(message: JsonObject, on: OnBehalf, signal: AbortSignal): Promise<Result<Channel & { plan: ReplayPlan }>> {
    const planned = planReplay({ mode: on.mode, ...(on.sessionKey !== undefined ? { sessionKey: on.sessionKey } : {}), message, secrets: false }, this.service.deps);
    if (!planned.ok) return planned;
    const plan = planned.value;
    if (on.mode === 'session' && on.sessionKey !== undefined && isImportedSession(on.sessionKey)) {
      return fail('imported_session', `Session ${on.sessionKey} was imported from a file: no live server knows it. Use a fresh session.`, { retryWith: 'fresh' });
    }
    if (on.mode === 'session') return plan.sessionKey === undefined ? fail('no_session', 'Name the session to send into.') : ok({ sessionKey: plan.sessionKey, path: plan.path, wire: plan.wire, plan });
    const fresh = await this.fresh(plan, on, signal);
    return fresh.ok ? ok({ ...fresh.value, plan }) : fresh;
  }

  private fresh(plan: ReplayPlan, on: OnBehalf, signal: AbortSignal): Promise<Result<Channel>> {
    const key = on.channelKey;
    const open = key === undefined ? undefined : this.channels.get(key);
    if (open) return Promise.resolve(ok(open));
    const pending = key === undefined ? undefined : this.opening.get(key);
    if (pending) return pending;
    const opening = openFreshSession(labelled(plan, on), this.service, signal, on.listen === true).then((r) => {
      if (key !== undefined) {
        this.opening.delete(key);
        if (r.ok) this.channels.set(key, r.value);
      }
      return r;
    });
    if (key !== undefined) this.opening.set(key, opening);
    return opening;
  }
}

/** The plan as the labelled client would present it. */
function labelled(plan: ReplayPlan, on: OnBehalf): ReplayPlan {
  if (on.label === undefined && on.extraCapabilities === undefined) return plan;
  const session = { ...(plan.session ?? { sessionKey: on.sessionKey ?? '', transport: 'replay', firstTs: 0, lastTs: 0, counts: {} }) };
  if (on.label !== undefined) {
    session.clientInfo = { ...(session.clientInfo ?? {}), name: String(session.clientInfo?.name ?? 'mcpscope'), title: on.label, version: String(session.clientInfo?.version ?? '0') };
  }
  if (on.extraCapabilities) session.clientCapabilities = mergeObjects(session.clientCapabilities ?? {}, on.extraCapabilities);
  const wire = { ...plan.wire, captured: { ...(plan.wire.captured ?? {}) } };
  if (on.label !== undefined) wire.captured['user-agent'] = `mcpscope (${on.label})`;
  return { ...plan, session, wire };
}

function mergeObjects(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = prev && typeof prev === 'object' && !Array.isArray(prev) && v && typeof v === 'object' && !Array.isArray(v) ? mergeObjects(prev, v) : v;
  }
  return out;
}
