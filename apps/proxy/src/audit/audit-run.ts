/**
 * One audit run over evidence: the checks with the capture's schema validator, and the server URL
 * widget origins derive from (given, or the https URL hosts reached the MCP endpoint at).
 */
import { requestedUrl, runAudit, type AuditEvidence, type AuditOptions, type AuditReport } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import { evidenceFromCapture } from './capture-evidence.js';
import { auditSchemaCheck } from './schema-check.js';

export interface AuditRunOptions {
  /** The connector URL hosts are given (widget origins derive from it). */
  serverUrl?: string;
  submitting: boolean;
}

export function auditEvidence(evidence: AuditEvidence, options: AuditRunOptions): AuditReport {
  const serverUrl = options.serverUrl ?? publicUrlOf(evidence);
  const auditOptions: AuditOptions = { submitting: options.submitting, schemaCheck: auditSchemaCheck(), ...(serverUrl ? { serverUrl } : {}) };
  return runAudit(evidence, auditOptions);
}

/** Audits what a capture holds (the running one for the dashboard, or a file). */
export function auditCapture(reader: CaptureReader, options: AuditRunOptions): AuditReport {
  return auditEvidence(evidenceFromCapture(reader), options);
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
