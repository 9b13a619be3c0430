/**
 * `mcpscope audit`, assembled: evidence from a capture file (a database through the capture
 * reader, a JSONL or HAR export through the importer) or from a live server probed through an
 * in-process tap with an in-memory capture, then the checks.
 */
import { evidenceFromFrames, requestedUrl, runAudit, type AuditEvidence, type AuditOptions, type AuditReport } from '@mcpscope/protocol';
import { evidenceFromCapture } from '../audit/capture-evidence.js';
import { auditSchemaCheck } from '../audit/schema-check.js';
import { probeTarget } from '../audit/target-probe.js';
import { CaptureReader } from '../capture/capture-reader.js';
import { isSqliteFile, readCaptureFile } from './capture-file.js';
import { startMcpscope } from './start-mcpscope.js';

export interface AuditRunOptions {
  /** The connector URL hosts are given (widget origins derive from it). */
  serverUrl?: string;
  submitting: boolean;
}

export type AuditRun = { ok: true; report: AuditReport; notes: string[] } | { ok: false; message: string };

/** Audits the evidence a running capture holds (the dashboard's Readiness view). */
export function auditCapture(reader: CaptureReader, options: AuditRunOptions): AuditReport {
  return audit(evidenceFromCapture(reader), options);
}

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
    const report = audit(evidenceFromCapture(tap.store), { ...options, serverUrl: options.serverUrl ?? options.target.href });
    return { ok: true, report, notes: probe.notes };
  } finally {
    await tap.close();
  }
}

function audit(evidence: AuditEvidence, options: AuditRunOptions): AuditReport {
  const serverUrl = options.serverUrl ?? publicUrlOf(evidence);
  const auditOptions: AuditOptions = { submitting: options.submitting, schemaCheck: auditSchemaCheck(), ...(serverUrl ? { serverUrl } : {}) };
  return runAudit(evidence, auditOptions);
}

/** The https URL hosts reached the MCP endpoint at (a tunnel's), when the capture shows one. */
function publicUrlOf(evidence: AuditEvidence): string | undefined {
  for (const r of evidence.door) {
    if (!r.mcp) continue;
    const url = requestedUrl(r);
    if (url?.startsWith('https://')) return url;
  }
  return undefined;
}
