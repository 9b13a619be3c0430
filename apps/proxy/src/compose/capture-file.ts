/**
 * Reads any capture file into frames: a capture database (read-only, through the capture
 * reader), an mcpscope JSONL export or a HAR (through the importer). Used by `open`, `mock` and
 * `verify`. A file that cannot be used says what is wrong with it; a file that is partly
 * damaged gives what could be read, with a problem saying where reading stopped.
 *
 * Session keys are the file's own (`mock` and `verify` report them as captured); `open` renames
 * them to imported ones itself.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { buildCassette, importedSessionKey, type Cassette, type Frame, type ImportReport } from '@mcpscope/protocol';
import { CaptureReader } from '../capture/capture-reader.js';
import { deriverDeps } from '../capture/deriver.js';
import { InspectorError } from '../core/errors.js';
import { importCapture } from '../interchange/importer.js';

export type CaptureFileResult = { ok: true; frames: Frame[]; report: ImportReport } | { ok: false; message: string };

const SQLITE_MAGIC = 'SQLite format 3\u0000';

export function isSqliteFile(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(16);
    return readSync(fd, buf, 0, 16, 0) === 16 && buf.toString('latin1') === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

export function readCaptureFile(file: string): CaptureFileResult {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) return { ok: false, message: `${file} is a directory, not a capture file` };
    size = stat.size;
  } catch (err) {
    return { ok: false, message: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}` };
  }
  const name = basename(file);
  if (size === 0) return { ok: false, message: `${file} is empty: a capture database, an mcpscope JSONL export or a HAR file was expected` };
  if (isSqliteFile(file)) return readDatabase(file, name);
  const result = importCapture(readFileSync(file, 'utf8'), name);
  if (!result.ok) return { ok: false, message: `${file}: ${result.problem.where}: ${result.problem.message}` };
  if (result.frames.length === 0) {
    const why = result.report.format === 'har' ? `is a HAR file whose ${result.report.skipped} entries carry no MCP traffic (no JSON-RPC request or response body)` : 'holds no frames';
    const broken = result.report.problems.length > 0 ? `; ${result.report.problems.length} could not be read (first: ${result.report.problems[0]!.where}: ${result.report.problems[0]!.message})` : '';
    return { ok: false, message: `${file} ${why}${broken}` };
  }
  // The importer names sessions as imported ones; mock and verify speak of them as captured.
  const prefix = importedSessionKey(result.report.name, '');
  const original = (key: string) => (key.startsWith(prefix) ? key.slice(prefix.length) : key);
  const frames = result.frames.map((f, i): Frame => {
    const frame: Frame = { ...f, seq: i + 1, sessionKey: original(f.sessionKey) };
    if (f.http?.connectionId !== undefined) frame.http = { ...f.http, connectionId: original(f.http.connectionId) };
    return frame;
  });
  return { ok: true, frames, report: { ...result.report, sessionKeys: result.report.sessionKeys.map(original) } };
}

function readDatabase(file: string, name: string): CaptureFileResult {
  let source: CaptureReader;
  try {
    source = CaptureReader.openFile(file);
  } catch (err) {
    return { ok: false, message: databaseMessage(file, err) };
  }
  const frames: Frame[] = [];
  const problems: ImportReport['problems'] = [];
  try {
    for (const frame of source.select()) frames.push(frame);
  } catch (err) {
    if (frames.length === 0) return { ok: false, message: databaseMessage(file, err) };
    // A database damaged part-way: what came before the damage is still good evidence.
    problems.push({ where: `after frame ${frames[frames.length - 1]!.seq}`, message: `the database is damaged (${(err as Error).message}); the ${frames.length} frames before it were read, the rest could not be` });
  } finally {
    source.close();
  }
  const sessionKeys = [...new Set(frames.map((f) => f.sessionKey))];
  return { ok: true, frames, report: { format: 'mcpscope-db', name, frames: frames.length, sessionKeys, skipped: 0, problems } };
}

/**
 * What went wrong opening a database, in words, from SQLite's result codes (better-sqlite3 names
 * them, node:sqlite numbers them). A missing table has no code of its own (SQLITE_ERROR), so only
 * that case reads SQLite's message.
 */
export function databaseMessage(file: string, err: unknown): string {
  if (err instanceof InspectorError) return err.message;
  const { code, errcode } = err as { code?: string; errcode?: unknown };
  const primary = typeof errcode === 'number' ? errcode & 0xff : undefined;
  const sqlite = (err as Error).message;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || primary === 26 || primary === 11) return `${file} starts like an SQLite database but is damaged (SQLite: ${sqlite}); nothing could be read from it`;
  if ((code === 'SQLITE_ERROR' || primary === 1) && /no such table/i.test(sqlite)) return `${file} is an SQLite database but not an mcpscope capture (it has no frames table)`;
  return `cannot read ${file} as a capture database: ${sqlite}`;
}

export type CassetteFileResult = { ok: true; cassette: Cassette; report: ImportReport } | { ok: false; message: string };

/** A capture file as the script `mock` serves and `verify` plays (derived as the capture derives). */
export function readCassette(file: string): CassetteFileResult {
  const read = readCaptureFile(file);
  if (!read.ok) return read;
  return { ok: true, cassette: buildCassette(read.frames, deriverDeps()), report: read.report };
}
