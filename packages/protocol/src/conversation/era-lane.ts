/**
 * The era lane of a conversation: every `server/discover` probe and `initialize`, with the
 * revision asked for and the answer, fallbacks from the stateless 2026-07-28 era to the legacy
 * handshake, and version mismatches. Kept small however long the conversation runs: the latest
 * MAX_ERA_EVENTS events, plus distinct steps counted.
 *
 * Arrays and events in a lane are never changed in place (each change makes a new array), so a
 * shallow copy of the lane is a snapshot that later events do not disturb.
 */
import { isJsonObject, type JsonObject } from '../model/json-rpc.js';
import type { EraEvent, EraLane, EraStep } from './conversation-summary.js';

export const MAX_ERA_EVENTS = 24;
export const MAX_ERA_STEPS = 16;
/** An initialize this soon after a failed probe is the client falling back. */
export const FALLBACK_WINDOW_MS = 60_000;
/** Failed probes, each followed by a fallback, before a new probe is called a loop. */
export const PROBE_LOOP_AFTER = 2;

const MODERN_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

export function emptyLane(): EraLane {
  return { probes: 0, failedProbes: 0, fallbacks: 0, mismatches: 0, steps: [], recent: [] };
}

/** The revision a negotiation request asks for: initialize's params, a probe's `_meta` or header. */
export function requestedRevision(method: string, params: JsonObject | undefined, headerVersion: string | undefined): string | undefined {
  if (method === 'initialize') return typeof params?.protocolVersion === 'string' ? params.protocolVersion : undefined;
  const meta = params?._meta;
  const v = isJsonObject(meta) ? meta[MODERN_VERSION_META] : undefined;
  return typeof v === 'string' ? v : headerVersion;
}

/** Adds a pending event; an initialize right after a failed probe is marked as the fallback. */
export function startEvent(lane: EraLane, event: EraEvent): EraEvent {
  if (event.kind === 'discover') lane.probes++;
  else {
    const probe = lastFinished(lane, 'discover');
    if (probe && probe.outcome === 'failed' && event.ts - probe.ts <= FALLBACK_WINDOW_MS && !followedByInitialize(lane, probe)) {
      event = { ...event, fallback: true };
      lane.fallbacks++;
    }
  }
  lane.recent = [...lane.recent.slice(-(MAX_ERA_EVENTS - 1)), event];
  return event;
}

/** Whether the client keeps probing a server it already fell back from (checked as a probe starts). */
export function isProbeLoop(lane: EraLane): boolean {
  return lane.failedProbes >= PROBE_LOOP_AFTER && lane.fallbacks >= PROBE_LOOP_AFTER;
}

export interface EraAnswer {
  ok: boolean;
  result?: JsonObject;
  httpStatus?: number;
  errorCode?: number;
  errorMessage?: string;
  errorData?: unknown;
}

/** Settles a pending event with its answer; returns the settled event. */
export function finishEvent(lane: EraLane, pending: EraEvent, answer: EraAnswer): EraEvent {
  const event: EraEvent = { ...pending, outcome: answer.ok ? 'ok' : 'failed' };
  if (pending.kind === 'discover') {
    const supported = answer.ok ? stringList(answer.result?.supportedVersions) : isJsonObject(answer.errorData) ? stringList(answer.errorData.supported) : undefined;
    if (supported) event.supported = supported;
    if (answer.ok && supported && pending.requested && supported.includes(pending.requested)) event.agreed = pending.requested;
    if (!answer.ok) lane.failedProbes++;
    if (answer.errorCode === -32022 || (answer.ok && supported && !event.agreed)) event.mismatch = true;
  } else if (answer.ok) {
    if (typeof answer.result?.protocolVersion === 'string') event.agreed = answer.result.protocolVersion;
  } else if (answer.errorCode === -32022 || (isJsonObject(answer.errorData) && Array.isArray(answer.errorData.supported))) {
    event.mismatch = true;
  }
  if (!answer.ok) event.error = describeFailure(answer);
  if (event.mismatch) lane.mismatches++;
  if (event.agreed) lane.agreed = event.agreed;
  lane.recent = lane.recent.map((e) => (e.exchangeId === event.exchangeId ? event : e));
  addStep(lane, event);
  return event;
}

/**
 * A session moved to another conversation (its own tool call named the host's conversation): its
 * events move with it. Returns `to`, updated; `from` is updated too.
 */
export function moveSessionEvents(from: EraLane, to: EraLane, sessionKey: string): EraLane {
  const moving = from.recent.filter((e) => e.sessionKey === sessionKey);
  if (moving.length === 0) return to;
  from.recent = from.recent.filter((e) => e.sessionKey !== sessionKey);
  for (const e of moving) count(from, e, -1);
  from.agreed = [...from.recent].reverse().find((e) => e.agreed)?.agreed ?? from.agreed;
  const merged = [...to.recent, ...moving].sort((a, b) => a.ts - b.ts);
  to.recent = merged.slice(-MAX_ERA_EVENTS);
  for (const e of moving) count(to, e, +1);
  const agreed = [...moving].reverse().find((e) => e.agreed)?.agreed;
  if (agreed) to.agreed = agreed;
  return to;
}

/** Adds (+1) or removes (-1) one event's share of a lane's counters and steps. */
function count(lane: EraLane, e: EraEvent, sign: 1 | -1): void {
  if (e.kind === 'discover') lane.probes += sign;
  if (e.fallback) lane.fallbacks += sign;
  if (e.outcome === 'pending') return;
  if (e.kind === 'discover' && e.outcome === 'failed') lane.failedProbes += sign;
  if (e.mismatch) lane.mismatches += sign;
  if (sign > 0) return addStep(lane, e);
  const at = findStep(lane, e);
  if (at < 0) return;
  const s = lane.steps[at]!;
  lane.steps = s.count > 1 ? lane.steps.map((x, i) => (i === at ? { ...s, count: s.count - 1 } : x)) : lane.steps.filter((_, i) => i !== at);
}

function findStep(lane: EraLane, e: EraEvent): number {
  const answer = stepAnswer(e);
  const outcome = e.outcome === 'ok' ? 'ok' : 'failed';
  return lane.steps.findIndex((s) => s.kind === e.kind && s.requested === e.requested && s.answer === answer && s.outcome === outcome && !!s.fallback === !!e.fallback);
}

function addStep(lane: EraLane, event: EraEvent): void {
  const at = findStep(lane, event);
  if (at >= 0) {
    const s = lane.steps[at]!;
    lane.steps = lane.steps.map((x, i) => (i === at ? { ...s, count: s.count + 1, lastTs: event.ts } : x));
    return;
  }
  if (lane.steps.length >= MAX_ERA_STEPS) return;
  const step: EraStep = { kind: event.kind, answer: stepAnswer(event), outcome: event.outcome === 'ok' ? 'ok' : 'failed', count: 1, firstTs: event.ts, lastTs: event.ts };
  if (event.requested !== undefined) step.requested = event.requested;
  if (event.fallback) step.fallback = true;
  if (event.mismatch) step.mismatch = true;
  lane.steps = [...lane.steps, step];
}

function stepAnswer(e: EraEvent): string {
  if (e.outcome !== 'ok') return e.error ?? 'failed';
  if (e.kind === 'discover') return e.supported ? `supports ${e.supported.join(', ')}` : 'answered';
  return e.agreed ?? 'answered';
}

function describeFailure(a: EraAnswer): string {
  const parts: string[] = [];
  if (a.httpStatus !== undefined && a.httpStatus >= 300) parts.push(`HTTP ${a.httpStatus}`);
  const rpc = [a.errorCode, a.errorMessage].filter((x) => x !== undefined).join(' ');
  if (rpc) parts.push(rpc.length > 90 ? `${rpc.slice(0, 89)}…` : rpc);
  return parts.join(' · ') || 'failed';
}

function lastFinished(lane: EraLane, kind: EraEvent['kind']): EraEvent | undefined {
  for (let i = lane.recent.length - 1; i >= 0; i--) {
    const e = lane.recent[i]!;
    if (e.kind === kind && e.outcome !== 'pending') return e;
  }
  return undefined;
}

/** Whether an initialize already fell back from this probe (one fallback per failed probe). */
function followedByInitialize(lane: EraLane, probe: EraEvent): boolean {
  return lane.recent.some((e) => e.kind === 'initialize' && e.fallback && e.ts >= probe.ts);
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}
