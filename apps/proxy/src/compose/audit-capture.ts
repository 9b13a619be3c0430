/**
 * `mcpscope audit`, assembled: evidence from a capture file (a database through the capture
 * reader, a JSONL or HAR export through the importer) or from a live server probed through an
 * in-process tap with an in-memory capture, then the checks.
 */
import { evidenceFromFrames, type AuditEvidence, type AuditReport } from '@mcpscope/protocol';
import { auditEvidence as audit, type AuditRunOptions } from '../audit/audit-run.js';
import { evidenceFromCapture } from '../audit/capture-evidence.js';
import { probeTarget } from '../audit/target-probe.js';
import { CaptureReader } from '../capture/capture-reader.js';
import { isSqliteFile, readCaptureFile } from './capture-file.js';
import { startMcpscope } from './start-mcpscope.js';

export { auditCapture, type AuditRunOptions } from '../audit/audit-run.js';

export type AuditRun = { ok: true; report: AuditReport; notes: string[] } | { ok: false; message: string };

export function auditFile(file: string, options: AuditRunOptions): AuditRun {
  let evidence: AuditEvidence;
  try {
    if (isSqliteFile(file)) {
      const reader = CaptureReader.openFile(file);
      try {
        evidence = evidenceFromCapture(reader);
      } finally {
        reader.close();
      }
    } else {
      const read = readCaptureFile(file);
      if (!read.ok) return read;
      evidence = evidenceFromFrames(read.frames);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, message: code === 'ENOENT' ? `cannot read ${file}: no such file` : `cannot read ${file}: ${(err as Error).message}` };
  }
  return { ok: true, report: audit(evidence, options), notes: [] };
}

export interface AuditTargetOptions extends AuditRunOptions {
  target: URL;
  headers: Record<string, string>;
  timeoutMs: number;
}

export async function auditTarget(options: AuditTargetOptions): Promise<AuditRun> {
  const tap = await startMcpscope({ db: ':memory:', port: 0, uiPort: 0, target: options.target.href });
  try {
    const probe = await probeTarget({ mcpUrl: tap.mcpUrl, upstreamOrigin: options.target.origin, headers: options.headers, submitting: options.submitting, timeoutMs: options.timeoutMs });
    await tap.pipeline.whenWritten();
    // Door records without frames (OAuth discovery, the challenge file) wait for a tick of their own.
    tap.pipeline.flush(true);
    const report = audit(evidenceFromCapture(tap.store), { ...options, serverUrl: options.serverUrl ?? options.target.href });
    return { ok: true, report, notes: probe.notes };
  } finally {
    await tap.close();
  }
}
