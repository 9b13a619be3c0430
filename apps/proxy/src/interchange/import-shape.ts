/**
 * What an import does to each thing it reads, whole file or stream alike: sessions renamed to
 * `import:<file>:<original>` so imported traffic never pairs with live traffic and reads as
 * imported everywhere; header names lower-cased as live capture stores them (replay's filters
 * compare lower case: `Host` from a file must not slip past them); what is not an HTTP header
 * dropped and reported (a file can hold any name; a command or a replay built from it must not);
 * credential headers redacted on the way in (a browser's HAR carries real cookies; the store never
 * holds secrets). It counts what the report says: frames, sessions, what was dropped.
 */
import { importedSessionKey, type DoorRecord, type Frame, type FrameInput, type ImportFormat, type ImportProblem, type ImportReport } from '@mcpscope/protocol';
import { redactHeaderValue } from '../redaction/redact.js';
import { cleanHeaders } from '../core/http-fields.js';
import type { ImportNaming } from './har-reader.js';

export class ImportShaper {
  readonly name: string;
  readonly naming: ImportNaming;
  private readonly dropped: { where: string; name: string }[] = [];
  private readonly sessionKeys = new Set<string>();
  frames = 0;

  constructor(fileName: string) {
    this.name = fileName.replace(/^.*[\\/]/, '') || 'capture';
    this.naming = {
      sessionKey: (original) => importedSessionKey(this.name, original),
      connectionId: (original) => importedSessionKey(this.name, original),
    };
  }

  /** A frame of an mcpscope JSONL file, renamed (its seq is the file's: the caller keeps it). */
  jsonlFrame({ seq, ...frame }: Frame): FrameInput {
    const out: FrameInput = { ...frame, sessionKey: this.naming.sessionKey(frame.sessionKey) };
    if (frame.http) out.http = { ...frame.http, ...(frame.http.connectionId ? { connectionId: this.naming.connectionId(frame.http.connectionId) } : {}) };
    return this.frame(out, `frame ${seq}`);
  }

  /** A frame as the pipeline takes it (HAR frames come renamed by readHar): headers cleaned, counted. */
  frame(frame: FrameInput, where: string): FrameInput {
    if (frame.http?.requestHeaders) frame.http.requestHeaders = this.headersIn(frame.http.requestHeaders, where);
    if (frame.http?.responseHeaders) frame.http.responseHeaders = this.headersIn(frame.http.responseHeaders, where);
    this.frames++;
    this.sessionKeys.add(frame.sessionKey);
    return frame;
  }

  /** A door record of an mcpscope JSONL file, renamed, its headers cleaned. */
  request(r: DoorRecord): DoorRecord {
    const out: DoorRecord = { ...r };
    if (r.sessionKey !== undefined) out.sessionKey = this.naming.sessionKey(r.sessionKey);
    if (r.mcpSessionId !== undefined) out.mcpSessionId = this.naming.sessionKey(r.mcpSessionId);
    out.requestHeaders = this.headersIn(r.requestHeaders, `request ${r.id}`);
    out.responseHeaders = this.headersIn(r.responseHeaders, `request ${r.id}`);
    return out;
  }

  /** The report, the dropped headers told as one problem after the file's own. */
  report(format: ImportFormat, problems: ImportProblem[], counts: { skipped?: number; requests?: number; links?: number } = {}): ImportReport {
    if (this.dropped.length > 0) {
      const names = [...new Set(this.dropped.map((d) => JSON.stringify(d.name)))];
      problems.push({ where: this.dropped[0]!.where, message: `${this.dropped.length} header${this.dropped.length === 1 ? ' was' : 's were'} dropped: not HTTP headers (RFC 9110 token names, values without CR, LF or NUL): ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}` });
    }
    const report: ImportReport = { format, name: this.name, frames: this.frames, sessionKeys: [...this.sessionKeys], skipped: counts.skipped ?? 0, problems };
    if (counts.requests) report.requests = counts.requests;
    if (counts.links) report.links = counts.links;
    return report;
  }

  /** A file's headers as the store keeps them: real headers only, lower-case names, secrets redacted; what was dropped is noted. */
  private headersIn(headers: unknown, where: string): Record<string, string> {
    const clean = cleanHeaders(headers);
    for (const name of clean.dropped) this.dropped.push({ where, name });
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(clean.headers)) out[name] = value.includes('[redacted]') ? value : redactHeaderValue(name, value);
    return out;
  }
}
