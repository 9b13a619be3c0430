/**
 * The era lane of a conversation: every `server/discover` probe and `initialize`, with the
 * revision asked for and the answer, fallbacks from the stateless 2026-07-28 era to the legacy
 * handshake, and version mismatches. Kept small however long the conversation runs: the latest
 * MAX_ERA_EVENTS events, plus distinct steps counted.
 *
 * A lane is changed in place (these run on the capture's hot path: a ChatGPT session moves its
 * initialize from one lane to another on its first call), so whoever hands a lane out copies it
 * (copyLane). Events themselves are never changed: settling one puts a new object in its place.
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

/** A copy that later changes to `lane` do not reach. */
export function copyLane(lane: EraLane): EraLane {
  return { ...lane, steps: lane.steps.map((s) => ({ ...s })), recent: lane.recent.slice() };
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
  else if (fallsBack(lane, event.ts)) {
    event = { ...event, fallback: true };
    lane.fallbacks++;
  }
  push(lane.recent, event);
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
  const event: EraEvent = { kind: pending.kind, exchangeId: pending.exchangeId, sessionKey: pending.sessionKey, ts: pending.ts, outcome: answer.ok ? 'ok' : 'failed' };
  if (pending.requested !== undefined) event.requested = pending.requested;
  if (pending.fallback) event.fallback = true;
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
  const at = indexOf(lane.recent, event.exchangeId);
  if (at >= 0) lane.recent[at] = event;
  addStep(lane, event);
  return event;
}

/**
 * A session moved to another conversation (its own tool call named the host's conversation): its
 * events move with it.
 */
export function moveSessionEvents(from: EraLane, to: EraLane, sessionKey: string): void {
  // Every event is looked at (there are at most MAX_ERA_EVENTS): the lane is in the order frames
  // were recorded, not by time. A stateful server's initialize is recorded once its answer names
  // the session, stamped with when it arrived, so under concurrency it follows later frames.
  let moved = 0;
  for (let i = from.recent.length - 1; i >= 0; i--) {
    const e = from.recent[i]!;
    if (e.sessionKey !== sessionKey) continue;
    from.recent.splice(i, 1);
    count(from, e, -1);
    insertByTime(to.recent, e);
    count(to, e, +1);
    if (e.agreed !== undefined && (to.recent[to.recent.length - 1] === e || to.agreed === undefined)) to.agreed = e.agreed;
    moved++;
  }
  if (moved > 0 && from.recent.length > 0) {
    for (let i = from.recent.length - 1; i >= 0; i--) {
      if (from.recent[i]!.agreed !== undefined) {
        from.agreed = from.recent[i]!.agreed;
        break;
      }
    }
  }
}

/** Adds (+1) or removes (-1) one event's share of a lane's counters and steps. */
function count(lane: EraLane, e: EraEvent, sign: 1 | -1): void {
  if (e.kind === 'discover') lane.probes += sign;
  if (e.fallback) lane.fallbacks += sign;
  if (e.outcome === 'pending') return;
  if (e.kind === 'discover' && e.outcome === 'failed') lane.failedProbes += sign;
  if (e.mismatch) lane.mismatches += sign;
  if (sign > 0) return addStep(lane, e);
  const at = findStep(lane, e, stepAnswer(e));
  if (at < 0) return;
  const s = lane.steps[at]!;
  if (s.count > 1) s.count--;
  else lane.steps.splice(at, 1);
}

function findStep(lane: EraLane, e: EraEvent, answer: string): number {
  const outcome = e.outcome === 'ok' ? 'ok' : 'failed';
  const fallback = e.fallback === true;
  for (let i = 0; i < lane.steps.length; i++) {
    const s = lane.steps[i]!;
    if (s.kind === e.kind && s.requested === e.requested && s.answer === answer && s.outcome === outcome && (s.fallback === true) === fallback) return i;
  }
  return -1;
}

function addStep(lane: EraLane, event: EraEvent): void {
  const answer = stepAnswer(event);
  const at = findStep(lane, event, answer);
  if (at >= 0) {
    const s = lane.steps[at]!;
    s.count++;
    if (event.ts > s.lastTs) s.lastTs = event.ts;
    return;
  }
  if (lane.steps.length >= MAX_ERA_STEPS) return;
  const step: EraStep = { kind: event.kind, answer, outcome: event.outcome === 'ok' ? 'ok' : 'failed', count: 1, firstTs: event.ts, lastTs: event.ts };
  if (event.requested !== undefined) step.requested = event.requested;
  if (event.fallback) step.fallback = true;
  if (event.mismatch) step.mismatch = true;
  lane.steps.push(step);
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

/** An initialize falls back when the latest settled probe failed, just before, and no initialize followed it yet. */
function fallsBack(lane: EraLane, ts: number): boolean {
  if (lane.probes === 0) return false;
  for (let i = lane.recent.length - 1; i >= 0; i--) {
    const e = lane.recent[i]!;
    if (e.kind === 'initialize' && e.fallback) return false;
    if (e.kind === 'discover' && e.outcome !== 'pending') return e.outcome === 'failed' && ts - e.ts <= FALLBACK_WINDOW_MS;
  }
  return false;
}

function push(recent: EraEvent[], event: EraEvent): void {
  recent.push(event);
  if (recent.length > MAX_ERA_EVENTS) recent.shift();
}

function insertByTime(recent: EraEvent[], event: EraEvent): void {
  let at = recent.length;
  while (at > 0 && recent[at - 1]!.ts > event.ts) at--;
  recent.splice(at, 0, event);
  if (recent.length > MAX_ERA_EVENTS) recent.shift();
}

function indexOf(recent: EraEvent[], exchangeId: string): number {
  for (let i = recent.length - 1; i >= 0; i--) if (recent[i]!.exchangeId === exchangeId) return i;
  return -1;
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}
