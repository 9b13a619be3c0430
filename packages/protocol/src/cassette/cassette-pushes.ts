/**
 * What the server said on its own: every server→client request and notification of a session
 * that no call's own answer carried (cassette-events.ts keeps those with their call), each tied
 * to its trigger, the client frame last received before it in the same session, and timed from
 * it. Triggers are what a mock can recognise live: a call (by the captured exchange it matched),
 * a client notification (by its exchange), the client's reply to an earlier push of the session,
 * or the session's start when the client had sent nothing yet. A reply to a server request that
 * rode inside a call triggers as that call does, timed from the call's request.
 *
 * Over Streamable HTTP these are the standalone GET stream's messages (roots/list after
 * `notifications/initialized`, log messages, resource updates); over HTTP+SSE, the session
 * stream's messages that answer nothing; over stdio, the server's lines that answer nothing.
 */
import type { ExchangeSummary } from '../model/exchange.js';
import type { Frame } from '../model/frame.js';
import type { JsonObject, Message } from '../model/json-rpc.js';
import { wireValue } from '../derive/item-context.js';
import { items } from './cassette-events.js';

export type PushTrigger = { kind: 'call'; exchangeId: string } | { kind: 'notification'; exchangeId: string } | { kind: 'reply'; push: number } | { kind: 'start' };

export interface CassettePush {
  /** Its place in the session's pushes (what a `reply` trigger names). */
  index: number;
  after: PushTrigger;
  /** Captured delay after the trigger frame (after the session's first frame for `start`). */
  offsetMs: number;
  kind: 'request' | 'notification';
  method: string;
  message: JsonObject;
  /** For a request: the client's captured reply, its delay after the push. */
  reply?: { offsetMs: number; message: JsonObject };
}

export interface PushInputs {
  frames: readonly Frame[];
  messages: ReadonlyMap<number, Message>;
  exchanges: Iterable<ExchangeSummary>;
  /** Server→client frames a call's events hold, by seq: the call's exchange id. */
  claimed: ReadonlyMap<number, string>;
  /** The cassette's calls and client notifications by the seq of the frame that carried them. */
  clientSteps: ReadonlyMap<number, { kind: 'call' | 'notification'; exchangeId: string }>;
  /** Request frame time of a call, by exchange id. */
  callTs: ReadonlyMap<string, number>;
}

interface LastClient {
  trigger: PushTrigger;
  ts: number;
}

/** The pushes of every session, by session key, in capture order. */
export function buildPushes(inputs: PushInputs): Map<string, CassettePush[]> {
  const { frames, messages, claimed, clientSteps, callTs } = inputs;
  // Server requests by the seq of their request frame, and by the seq of the client's reply.
  const serverRequestBySeq = new Map<number, ExchangeSummary>();
  const serverRequestByReply = new Map<number, ExchangeSummary>();
  for (const ex of inputs.exchanges) {
    if (ex.requester !== 'server' || ex.requestSeq === undefined) continue;
    serverRequestBySeq.set(ex.requestSeq, ex);
    if (ex.responseSeq !== undefined) serverRequestByReply.set(ex.responseSeq, ex);
  }
  const bySeq = new Map(frames.map((f) => [f.seq, f]));
  const pushes = new Map<string, CassettePush[]>();
  const last = new Map<string, LastClient>();
  const firstTs = new Map<string, number>();
  /** The push that each server request frame became, for its reply. */
  const pushOfRequest = new Map<number, CassettePush>();

  for (const frame of frames) {
    if (frame.kind !== 'data' || frame.transport === 'replay') continue;
    if (!firstTs.has(frame.sessionKey)) firstTs.set(frame.sessionKey, frame.ts);
    if (frame.direction === 'c2s') {
      const step = clientSteps.get(frame.seq);
      if (step) {
        last.set(frame.sessionKey, { trigger: { kind: step.kind, exchangeId: step.exchangeId }, ts: frame.ts });
        continue;
      }
      const answered = serverRequestByReply.get(frame.seq);
      const requestSeq = answered?.requestSeq;
      if (requestSeq === undefined) continue;
      const push = pushOfRequest.get(requestSeq);
      const call = claimed.get(requestSeq);
      if (push) last.set(frame.sessionKey, { trigger: { kind: 'reply', push: push.index }, ts: frame.ts });
      else if (call !== undefined) last.set(frame.sessionKey, { trigger: { kind: 'call', exchangeId: call }, ts: callTs.get(call) ?? frame.ts });
      continue;
    }
    if (claimed.has(frame.seq)) continue;
    const own = items(messages.get(frame.seq)).filter((m) => m.kind === 'request' || m.kind === 'notification');
    if (own.length === 0) continue;
    let list = pushes.get(frame.sessionKey);
    if (!list) pushes.set(frame.sessionKey, (list = []));
    const before = last.get(frame.sessionKey) ?? { trigger: { kind: 'start' } as const, ts: firstTs.get(frame.sessionKey)! };
    for (const item of own) {
      if (item.kind !== 'request' && item.kind !== 'notification') continue;
      const push: CassettePush = { index: list.length, after: before.trigger, offsetMs: Math.max(0, frame.ts - before.ts), kind: item.kind, method: item.method, message: wireValue(item) };
      if (item.kind === 'request') {
        const replyFrame = bySeq.get(serverRequestBySeq.get(frame.seq)?.responseSeq ?? -1);
        const reply = replyFrame ? items(messages.get(replyFrame.seq)).find((m) => (m.kind === 'response' || m.kind === 'error') && m.id === item.id) : undefined;
        if (replyFrame && reply) push.reply = { offsetMs: Math.max(0, replyFrame.ts - frame.ts), message: wireValue(reply) };
        pushOfRequest.set(frame.seq, push);
      }
      list.push(push);
    }
  }
  return pushes;
}

/** A key for a trigger, the same for the captured push and the live event that fires it. */
export function triggerKey(sessionKey: string, trigger: PushTrigger): string {
  switch (trigger.kind) {
    case 'call':
    case 'notification':
      return `${trigger.kind} ${trigger.exchangeId}`;
    case 'reply':
      return `reply ${sessionKey} ${trigger.push}`;
    case 'start':
      return `start ${sessionKey}`;
  }
}
