/**
 * Audit evidence from what a capture holds: exchanges (a request and its answer, the same ids the
 * dashboard shows) and door records. Two ways in, one shape out: `auditCallOf` for a caller that
 * already has exchange summaries and their frames (the capture reader), `evidenceFromFrames` for
 * a caller with frames only (a JSONL or HAR file), which pairs them as the capture does.
 */
import type { DoorRecord } from '../door/door-record.js';
import type { ExchangeSummary } from '../model/exchange.js';
import type { Frame } from '../model/frame.js';
import { classifyText, isJsonObject } from '../model/json-rpc.js';
import { ExchangeTracker } from '../pairing/exchange-tracker.js';
import type { AuditCall, AuditEvidence, AuditNotification } from './audit-types.js';

/** The methods whose requests and answers the checks read; others are left out of the evidence. */
export const AUDIT_METHODS: ReadonlySet<string> = new Set(['initialize', 'tools/list', 'tools/call', 'resources/list', 'resources/read']);
/** The notifications the checks read. */
export const AUDIT_NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/tools/list_changed']);

/** One exchange as the audit reads it; undefined for what the checks never look at. */
export function auditCallOf(summary: ExchangeSummary, request: Frame | undefined, response: Frame | undefined): AuditCall | undefined {
  if (summary.kind !== 'request' || summary.requester !== 'client' || !summary.method || !AUDIT_METHODS.has(summary.method)) return undefined;
  const req = request ? classifyText(request.raw) : undefined;
  const res = response ? classifyText(response.raw) : undefined;
  const call: AuditCall = { id: summary.id, sessionKey: summary.sessionKey, method: summary.method, status: summary.status, startTs: summary.startTs };
  if (req?.kind === 'request' && req.params) call.params = req.params;
  if (res?.kind === 'response' && isJsonObject(res.result)) call.result = res.result;
  if (res?.kind === 'error') call.error = { code: res.error.code, message: res.error.message };
  if (summary.latencyMs !== undefined) call.latencyMs = summary.latencyMs;
  return call;
}

export function auditNotificationOf(summary: ExchangeSummary): AuditNotification | undefined {
  if (summary.kind !== 'notification' || !summary.method || !AUDIT_NOTIFICATIONS.has(summary.method)) return undefined;
  return { id: summary.id, sessionKey: summary.sessionKey, method: summary.method, direction: summary.direction ?? 's2c', ts: summary.startTs };
}

/** Pairs frames as the capture does and keeps what the checks read. */
export function evidenceFromFrames(frames: readonly Frame[], door: readonly DoorRecord[] = []): AuditEvidence {
  const tracker = new ExchangeTracker();
  const summaries = new Map<string, ExchangeSummary>();
  for (const frame of frames) for (const ex of tracker.ingest(frame)) summaries.set(ex.id, ex);
  const bySeq = new Map(frames.map((f) => [f.seq, f]));
  const calls: AuditCall[] = [];
  const notifications: AuditNotification[] = [];
  for (const summary of summaries.values()) {
    const call = auditCallOf(summary, seqFrame(bySeq, summary.requestSeq), seqFrame(bySeq, summary.responseSeq));
    if (call) calls.push(call);
    const note = auditNotificationOf(summary);
    if (note) notifications.push(note);
  }
  return { calls: calls.sort(byStart), notifications: notifications.sort((a, b) => a.ts - b.ts), door: [...door] };
}

function seqFrame(bySeq: Map<number, Frame>, seq: number | undefined): Frame | undefined {
  return seq === undefined ? undefined : bySeq.get(seq);
}

function byStart(a: AuditCall, b: AuditCall): number {
  return a.startTs - b.startTs || Number(a.id) - Number(b.id);
}
