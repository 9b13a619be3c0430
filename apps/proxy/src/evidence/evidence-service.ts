/**
 * Writes an evidence pack for a request: finds the subject in the capture, makes the control
 * replay when asked (and possible), builds the redacted document and renders it as Markdown or
 * HTML. The API route and `mcpscope evidence` both call this, so they write the same pack.
 */
import type { CaptureReader } from '../capture/capture-reader.js';
import type { ErrorCode } from '../core/errors.js';
import { runControlReplay, type ControlReplay, type ControlReplayOutcome } from './control-replay.js';
import { EVIDENCE_FORMATS, type EvidenceFormat, type EvidencePack, type EvidenceSubject } from './evidence-document.js';
import { evidenceHtml } from './evidence-html.js';
import { evidenceMarkdown } from './evidence-markdown.js';
import { buildEvidencePack, evidenceScope, type EvidenceScope } from './evidence-pack.js';

export interface EvidenceRequest {
  subject: EvidenceSubject;
  format: EvidenceFormat;
  unredacted?: boolean;
  /** Replay the failed call in a fresh session to the live server and include the diff. */
  replay?: boolean;
}

export interface EvidenceDeps {
  source: CaptureReader;
  /** The live server's replay (compose/); absent over a capture file or `mcpscope open`. */
  controlReplay?: ControlReplay;
}

export type EvidenceOutput =
  | { ok: true; pack: EvidencePack; text: string; filename: string; contentType: string }
  | { ok: false; code: Extract<ErrorCode, 'not_found' | 'bad_param'>; message: string };

export function isEvidenceFormat(value: string): value is EvidenceFormat {
  return (EVIDENCE_FORMATS as readonly string[]).includes(value);
}

export async function writeEvidence(deps: EvidenceDeps, req: EvidenceRequest, signal: AbortSignal = new AbortController().signal, now = new Date()): Promise<EvidenceOutput> {
  const scope = evidenceScope(deps.source, req.subject);
  if (!scope) {
    const what = req.subject.kind === 'exchange' ? `no exchange "${req.subject.id}" in this capture (it may have been removed by retention)` : `no conversation "${req.subject.key}" in this capture`;
    return { ok: false, code: 'not_found', message: what };
  }
  let replay: ControlReplayOutcome | undefined;
  if (req.replay) {
    const failed = failedCall(scope);
    replay = failed
      ? await runControlReplay(deps.source, failed, deps.controlReplay, signal)
      : { status: 'not-run', replayOf: scope.focus[0]?.id ?? '', note: 'nothing failed here to replay' };
  }
  const pack = buildEvidencePack(deps.source, { scope, ...(req.unredacted ? { unredacted: true } : {}), ...(replay ? { replay } : {}), now });
  const name = req.subject.kind === 'exchange' ? `exchange-${req.subject.id}` : `conversation-${req.subject.key}`;
  const filename = `mcpscope-evidence-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.${req.format}`;
  return req.format === 'html'
    ? { ok: true, pack, text: evidenceHtml(pack), filename, contentType: 'text/html; charset=utf-8' }
    : { ok: true, pack, text: evidenceMarkdown(pack), filename, contentType: 'text/markdown; charset=utf-8' };
}

/** The call a control replay resends: the exchange itself, or the conversation's latest failed client request. */
function failedCall(scope: EvidenceScope) {
  if (scope.subject.kind === 'exchange') return scope.focus[0];
  return [...scope.focus].reverse().find((ex) => ex.status !== 'ok' && ex.status !== 'pending' && ex.kind === 'request' && ex.requester === 'client');
}
