/**
 * Import: a file's text in, frames for the capture pipeline out. Sniffs the format (mcpscope
 * JSONL or HAR), renames sessions to `import:<file>:<original>` so imported traffic never pairs
 * with live traffic and reads as imported everywhere, and redacts credential headers on the way
 * in (a browser's HAR carries real cookies; the store never holds secrets). Header names are
 * lower-cased, as live capture stores them (replay's filters compare lower case: `Host` from a
 * file must not slip past them), and what is not an HTTP header is dropped and reported (a file
 * can hold any name; a command or a replay built from it must not).
 */
import { importedSessionKey, type DoorRecord, type FrameInput, type ImportFormat, type ImportProblem, type ImportReport } from '@mcpscope/protocol';
import { redactHeaderValue } from '../redaction/redact.js';
import { cleanHeaders } from '../core/http-fields.js';
import { looksLikeJsonl, readJsonl } from './jsonl.js';
import { readHar, type ImportNaming } from './har-reader.js';
import type { ImportBatch } from '../capture/capture-pipeline.js';

export type ImportResult =
  | (Required<ImportBatch> & { ok: true; report: ImportReport })
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
  let links: ImportBatch['links'] = [];
  let marks: ImportBatch['marks'] = [];
  const dropped: { where: string; name: string }[] = [];
  if (looksLikeJsonl(body)) {
    const read = readJsonl(body);
    if (!read.ok) return { ok: false, code: 'import_unreadable', problem: read.problem };
    format = 'mcpscope-jsonl';
    problems = read.value.problems;
    originalSeqs = read.value.frames.map((f) => f.seq);
    links = read.value.links;
    marks = read.value.marks;
    requests = read.value.requests.map((r) => {
      const out: DoorRecord = { ...r };
      if (r.sessionKey !== undefined) out.sessionKey = naming.sessionKey(r.sessionKey);
      if (r.mcpSessionId !== undefined) out.mcpSessionId = naming.sessionKey(r.mcpSessionId);
      out.requestHeaders = headersIn(r.requestHeaders, `request ${r.id}`, dropped);
      out.responseHeaders = headersIn(r.responseHeaders, `request ${r.id}`, dropped);
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
  frames.forEach((frame, i) => {
    const where = `frame ${originalSeqs[i] ?? i + 1}`;
    if (frame.http?.requestHeaders) frame.http.requestHeaders = headersIn(frame.http.requestHeaders, where, dropped);
    if (frame.http?.responseHeaders) frame.http.responseHeaders = headersIn(frame.http.responseHeaders, where, dropped);
  });
  if (dropped.length > 0) {
    const names = [...new Set(dropped.map((d) => JSON.stringify(d.name)))];
    problems.push({ where: dropped[0]!.where, message: `${dropped.length} header${dropped.length === 1 ? ' was' : 's were'} dropped: not HTTP headers (RFC 9110 token names, values without CR, LF or NUL): ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}` });
  }
  const sessionKeys = [...new Set(frames.map((f) => f.sessionKey))];
  const report: ImportReport = { format, name, frames: frames.length, sessionKeys, skipped, problems };
  if (requests.length > 0) report.requests = requests.length;
  if (links.length > 0) report.links = links.length;
  return { ok: true, frames, originalSeqs, requests, links, marks, report };
}

/** A file's headers as the store keeps them: real headers only, lower-case names, secrets redacted; what was dropped is noted. */
function headersIn(headers: unknown, where: string, dropped: { where: string; name: string }[]): Record<string, string> {
  const clean = cleanHeaders(headers);
  for (const name of clean.dropped) dropped.push({ where, name });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(clean.headers)) out[name] = value.includes('[redacted]') ? value : redactHeaderValue(name, value);
  return out;
}
