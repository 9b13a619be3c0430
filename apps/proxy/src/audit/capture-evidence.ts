/**
 * Audit evidence from a capture, through the capture reader's public reads: exchanges in capture
 * order (only the methods the checks read have their frames fetched) and the door records.
 */
import { AUDIT_METHODS, AUDIT_NOTIFICATIONS, auditCallOf, auditNotificationOf, type AuditCall, type AuditEvidence, type AuditNotification } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';

export function evidenceFromCapture(reader: CaptureReader): AuditEvidence {
  const calls: AuditCall[] = [];
  const notifications: AuditNotification[] = [];
  for (const summary of reader.exchangesInCaptureOrder()) {
    if (!summary.method) continue;
    if (AUDIT_NOTIFICATIONS.has(summary.method)) {
      const note = auditNotificationOf(summary);
      if (note) notifications.push(note);
      continue;
    }
    if (!AUDIT_METHODS.has(summary.method)) continue;
    const seqs = [summary.requestSeq, summary.responseSeq].filter((s): s is number => s !== undefined);
    const frames = new Map(reader.frames(seqs).map((f) => [f.seq, f]));
    const call = auditCallOf(summary, pick(frames, summary.requestSeq), pick(frames, summary.responseSeq));
    if (call) calls.push(call);
  }
  return { calls, notifications, door: [...reader.requests()] };
}

function pick<T>(map: Map<number, T>, seq: number | undefined): T | undefined {
  return seq === undefined ? undefined : map.get(seq);
}
