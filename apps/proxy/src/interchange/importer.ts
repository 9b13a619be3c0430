/**
 * Import: a file's text in, frames for the capture pipeline out. Sniffs the format (mcpscope
 * JSONL or HAR), renames sessions to `import:<file>:<original>` so imported traffic never pairs
 * with live traffic and reads as imported everywhere, and redacts credential headers on the way
 * in (a browser's HAR carries real cookies; the store never holds secrets).
 */
import { importedSessionKey, type DoorRecord, type FrameInput, type ImportFormat, type ImportProblem, type ImportReport } from '@mcpscope/protocol';
import { redactHeaderValue } from '../redaction/redact.js';
import { looksLikeJsonl, readJsonl } from './jsonl.js';
import { readHar, type ImportNaming } from './har-reader.js';

export type ImportResult =
  | {
      ok: true;
      frames: FrameInput[];
      /** Each frame's seq in the file (JSONL), to re-link door records; empty for HAR. */
      originalSeqs: number[];
      /** Door records (JSONL only), renamed like the frames; their `frameSeqs` are the file's seqs. */
      requests: DoorRecord[];
      report: ImportReport;
    }
  | { ok: false; code: 'import_unreadable'; problem: ImportProblem };

export function importCapture(text: string, fileName: string): ImportResult {
  const name = fileName.replace(/^.*[\\/]/, '') || 'capture';
  const naming: ImportNaming = {
    sessionKey: (original) => importedSessionKey(name, original),
    connectionId: (original) => importedSessionKey(name, original),
  };
  const body = text.replace(/^\uFEFF/, '');
  let format: ImportFormat;
  let frames: FrameInput[];
  let problems: ImportProblem[];
  let skipped = 0;
  let originalSeqs: number[] = [];
  let requests: DoorRecord[] = [];
  if (looksLikeJsonl(body)) {
    const read = readJsonl(body);
    if (!read.ok) return { ok: false, code: 'import_unreadable', problem: read.problem };
    format = 'mcpscope-jsonl';
    problems = read.value.problems;
    originalSeqs = read.value.frames.map((f) => f.seq);
    requests = read.value.requests.map((r) => {
      const out: DoorRecord = { ...r };
      if (r.sessionKey !== undefined) out.sessionKey = naming.sessionKey(r.sessionKey);
      if (r.mcpSessionId !== undefined) out.mcpSessionId = naming.sessionKey(r.mcpSessionId);
      out.requestHeaders = redactRecord(r.requestHeaders);
      out.responseHeaders = redactRecord(r.responseHeaders);
      return out;
    });
    frames = read.value.frames.map(({ seq: _seq, ...frame }) => {
      const out: FrameInput = { ...frame, sessionKey: naming.sessionKey(frame.sessionKey) };
      if (frame.http) out.http = { ...frame.http, ...(frame.http.connectionId ? { connectionId: naming.connectionId(frame.http.connectionId) } : {}) };
      return out;
    });
  } else {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (err) {
      return { ok: false, code: 'import_unreadable', problem: { where: 'file', message: `neither mcpscope JSONL (first line {"format":"mcpscope-jsonl",…}) nor a HAR file (JSON): ${(err as Error).message}` } };
    }
    const read = readHar(doc, naming);
    if (!read.ok) return { ok: false, code: 'import_unreadable', problem: read.problem };
    format = 'har';
    frames = read.value.frames;
    problems = read.value.problems;
    skipped = read.value.skipped;
  }
  for (const frame of frames) {
    if (frame.http?.requestHeaders) frame.http.requestHeaders = redactRecord(frame.http.requestHeaders);
    if (frame.http?.responseHeaders) frame.http.responseHeaders = redactRecord(frame.http.responseHeaders);
  }
  const sessionKeys = [...new Set(frames.map((f) => f.sessionKey))];
  const report: ImportReport = { format, name, frames: frames.length, sessionKeys, skipped, problems };
  if (requests.length > 0) report.requests = requests.length;
  return { ok: true, frames, originalSeqs, requests, report };
}

function redactRecord(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = value.includes('[redacted]') ? value : redactHeaderValue(name, value);
  return out;
}
