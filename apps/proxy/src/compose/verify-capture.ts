/**
 * `mcpscope verify FILE --target URL`, assembled: the capture file read into a cassette (derived
 * as the capture derives, so `--only` sees the statuses and diagnostics the dashboard shows),
 * played against the target with the upstream client the tap uses.
 */
import type { Cassette, CompareOptions, Filter, ImportReport } from '@mcpscope/protocol';
import { upstreamRequest, type UpstreamRequest } from '../upstream/upstream-request.js';
import { runVerify, type VerifyResult } from '../verify/verify-run.js';
import type { VerifyRow } from '../verify/verify-session.js';
import { readCassette } from './capture-file.js';

export interface VerifyCaptureOptions {
  file: string;
  target: URL;
  only: Filter | null;
  compare: CompareOptions;
  headers: Record<string, string>;
  timeoutMs: number;
  maxAnswerBytes?: number;
  maxTimeMs?: number;
  request?: UpstreamRequest;
  onRow?(row: VerifyRow): void;
}

export type VerifyCaptureResult = { ok: true; result: VerifyResult; cassette: Cassette; report: ImportReport } | { ok: false; message: string };

export async function verifyCapture(options: VerifyCaptureOptions): Promise<VerifyCaptureResult> {
  const read = readCassette(options.file);
  if (!read.ok) return read;
  const result = await runVerify({
    cassette: read.cassette,
    target: options.target,
    request: options.request ?? upstreamRequest,
    only: options.only,
    compare: options.compare,
    headers: options.headers,
    timeoutMs: options.timeoutMs,
    ...(options.maxAnswerBytes !== undefined ? { maxAnswerBytes: options.maxAnswerBytes } : {}),
    ...(options.maxTimeMs !== undefined ? { maxTimeMs: options.maxTimeMs } : {}),
    ...(options.onRow ? { onRow: options.onRow } : {}),
  });
  return { ok: true, result, cassette: read.cassette, report: read.report };
}
