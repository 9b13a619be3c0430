/**
 * mcpscope JSONL: the lossless capture format. Line 1 is a header naming the format and its
 * version; every further line is one frame exactly as stored (raw text untouched unless redaction
 * replaced a secret), then one line per door record (`"type":"request"`: every HTTP request the
 * tap received, whole), then one line per replay link (`"type":"link"`: which exchange replays
 * which, the one fact frames cannot give back). Frames are the evidence: importing them and
 * deriving again through CaptureDeriver rebuilds the same exchanges, statuses and diagnostics; the
 * links are put back on the exchanges their seqs name. Then one line per mark (`"type":"mark"`: a
 * labelled line in the timeline, or where capture was paused and resumed). Readers that predate a
 * line type report its lines as problems and import the rest.
 *
 * The reader is forgiving line by line: a broken line is reported with its number and skipped,
 * the rest imports.
 */
import type { CaptureMark, Direction, DoorRecord, Frame, FrameKind, HttpInfo, ImportProblem, Transport } from '@mcpscope/protocol';
import type { StoredLink } from '../capture/replay-links.js';

export const JSONL_FORMAT = 'mcpscope-jsonl';
export const JSONL_VERSION = 1;

export interface JsonlHeader {
  format: typeof JSONL_FORMAT;
  version: number;
  exportedAt: string;
  generator: string;
  /** What the export selected, for the reader's information. */
  filter?: string;
  session?: string;
  redaction: { enabled: boolean; rules: string[] };
}

export interface JsonlRead {
  header: JsonlHeader;
  frames: Frame[];
  /** Door-record lines (`"type":"request"`): every HTTP request the tap received. */
  requests: DoorRecord[];
  /** Replay-link lines (`"type":"link"`), exchange ids as in the file. */
  links: StoredLink[];
  marks: CaptureMark[];
  problems: ImportProblem[];
}

export type JsonlReadResult = { ok: true; value: JsonlRead } | { ok: false; problem: ImportProblem };

export function jsonlHeaderLine(header: JsonlHeader): string {
  return `${JSON.stringify(header)}\n`;
}

/** One frame per line, fields in a fixed order so exports diff cleanly. */
export function jsonlFrameLine(frame: Frame): string {
  const line: Record<string, unknown> = {
    seq: frame.seq,
    ts: frame.ts,
    sessionKey: frame.sessionKey,
    direction: frame.direction,
    transport: frame.transport,
    kind: frame.kind,
    raw: frame.raw,
  };
  if (frame.http) line.http = frame.http;
  return `${JSON.stringify(line)}\n`;
}

/** One door record per line, marked `"type":"request"` (frame lines have no `type`). */
export function jsonlRequestLine(record: DoorRecord): string {
  return `${JSON.stringify({ type: 'request', ...record })}\n`;
}

/** One replay link per line, marked `"type":"link"`. */
export function jsonlLinkLine(link: StoredLink): string {
  return `${JSON.stringify({ type: 'link', ...link })}\n`;
}

/** One mark per line, marked `"type":"mark"`. */
export function jsonlMarkLine(mark: CaptureMark): string {
  return `${JSON.stringify({ type: 'mark', ...mark })}\n`;
}

const MARK_KINDS: readonly CaptureMark['kind'][] = ['mark', 'pause', 'resume'];

/** A mark line checked, or why it is not one. */
function toMark(value: Record<string, unknown>): CaptureMark | string {
  const { id, ts, afterSeq, kind, label } = value;
  if (typeof id !== 'number' || typeof ts !== 'number' || typeof afterSeq !== 'number' || typeof label !== 'string' || !MARK_KINDS.includes(kind as CaptureMark['kind'])) {
    return 'a mark line needs id, ts, afterSeq (numbers), kind (mark, pause or resume) and label (text)';
  }
  return { id, ts, afterSeq, kind: kind as CaptureMark['kind'], label };
}

/** True when the text starts like an mcpscope JSONL file (used to sniff imports). */
export function looksLikeJsonl(text: string): boolean {
  const first = text.slice(0, 200).trimStart();
  return first.startsWith('{') && first.includes(`"${JSONL_FORMAT}"`);
}

const DIRECTIONS: readonly Direction[] = ['c2s', 's2c'];
const TRANSPORTS: readonly Transport[] = ['http-json', 'sse', 'stdio', 'legacy-sse', 'replay'];
const KINDS: readonly FrameKind[] = ['data', 'transport', 'log'];

export function readJsonl(text: string): JsonlReadResult {
  const lines = text.split('\n');
  const header = readJsonlHeader(lines[0] ?? '');
  if (!header.ok) return header;
  const frames: Frame[] = [];
  const problems: ImportProblem[] = [];
  const requests: DoorRecord[] = [];
  const links: StoredLink[] = [];
  const marks: CaptureMark[] = [];
  const reader = new JsonlLineReader();
  for (let i = 1; i < lines.length; i++) {
    const item = reader.read(lines[i]!, i + 1);
    if (item === undefined) continue;
    if (item.kind === 'frame') frames.push(item.frame);
    else if (item.kind === 'request') requests.push(item.request);
    else if (item.kind === 'link') links.push(item.link);
    else if (item.kind === 'mark') marks.push(item.mark);
    else problems.push(item.problem);
  }
  return { ok: true, value: { header: header.value, frames, requests, links, marks, problems } };
}

/** Line 1 of an mcpscope JSONL file checked: the format, a version this reader knows. */
export function readJsonlHeader(line: string): { ok: true; value: JsonlHeader } | { ok: false; problem: ImportProblem } {
  let header: unknown;
  try {
    header = JSON.parse(line.replace(/\r$/, ''));
  } catch (err) {
    return { ok: false, problem: { where: 'line 1', message: `the header is not JSON (${(err as Error).message})` } };
  }
  const h = header as Partial<JsonlHeader> | null;
  if (!h || typeof h !== 'object' || h.format !== JSONL_FORMAT) {
    return { ok: false, problem: { where: 'line 1', message: `not an mcpscope JSONL file: the header must say "format":"${JSONL_FORMAT}"` } };
  }
  if (typeof h.version !== 'number' || h.version > JSONL_VERSION) {
    return { ok: false, problem: { where: 'line 1', message: `this file is mcpscope-jsonl version ${String(h.version)}; this mcpscope reads up to version ${JSONL_VERSION}` } };
  }
  return { ok: true, value: h as JsonlHeader };
}

/** What one line after the header is. */
export type JsonlItem =
  | { kind: 'frame'; frame: Frame }
  | { kind: 'request'; request: DoorRecord }
  | { kind: 'link'; link: StoredLink }
  | { kind: 'mark'; mark: CaptureMark }
  | { kind: 'problem'; problem: ImportProblem };

/**
 * Reads the lines after the header one at a time (a whole file, or a stream line by line); it
 * remembers only the last frame's seq, to hold frames to capture order.
 */
export class JsonlLineReader {
  private lastSeq = -Infinity;

  /** Line `lineNo` (1 is the header), or undefined for a blank line. */
  read(text: string, lineNo: number): JsonlItem | undefined {
    const line = text.replace(/\r$/, '');
    if (line.trim() === '') return undefined;
    const where = `line ${lineNo}`;
    const problem = (message: string): JsonlItem => ({ kind: 'problem', problem: { where, message } });
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      return problem(`not JSON (${(err as Error).message})`);
    }
    const type = (value as { type?: unknown } | null)?.type;
    if (type === 'request') {
      const record = toRequest(value as Record<string, unknown>);
      return typeof record === 'string' ? problem(record) : { kind: 'request', request: record };
    }
    if (type === 'link') {
      const link = toLink(value as Record<string, unknown>);
      return typeof link === 'string' ? problem(link) : { kind: 'link', link };
    }
    if (type === 'mark') {
      const mark = toMark(value as Record<string, unknown>);
      return typeof mark === 'string' ? problem(mark) : { kind: 'mark', mark };
    }
    const checked = toFrame(value);
    if (typeof checked === 'string') return problem(checked);
    if (checked.seq <= this.lastSeq) return problem(`seq ${checked.seq} is not after the previous frame's ${this.lastSeq}; frames must be in capture order`);
    this.lastSeq = checked.seq;
    return { kind: 'frame', frame: checked };
  }
}

/** A frame, or a sentence saying which field is wrong. */
function toFrame(value: unknown): Frame | string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'a frame line must be a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.seq !== 'number' || !Number.isInteger(v.seq)) return '"seq" must be an integer';
  if (typeof v.ts !== 'number' || !Number.isFinite(v.ts)) return '"ts" must be a number (ms since the epoch)';
  if (typeof v.sessionKey !== 'string') return '"sessionKey" must be a string';
  if (!DIRECTIONS.includes(v.direction as Direction)) return `"direction" must be one of ${DIRECTIONS.join(', ')}`;
  if (!TRANSPORTS.includes(v.transport as Transport)) return `"transport" must be one of ${TRANSPORTS.join(', ')}`;
  if (!KINDS.includes(v.kind as FrameKind)) return `"kind" must be one of ${KINDS.join(', ')}`;
  if (typeof v.raw !== 'string') return '"raw" must be a string';
  const frame: Frame = {
    seq: v.seq,
    ts: v.ts,
    sessionKey: v.sessionKey,
    direction: v.direction as Direction,
    transport: v.transport as Transport,
    kind: v.kind as FrameKind,
    raw: v.raw,
  };
  if (v.http !== undefined) {
    const http = v.http as Partial<HttpInfo> | null;
    if (!http || typeof http !== 'object' || typeof http.method !== 'string' || typeof http.path !== 'string') {
      return '"http" must be an object with "method" and "path"';
    }
    frame.http = http as HttpInfo;
  }
  return frame;
}

/** A door record, or a sentence saying which field is wrong (the rest is taken as written). */
function toRequest(v: Record<string, unknown>): DoorRecord | string {
  const { type: _type, ...rest } = v;
  const r = rest as Partial<DoorRecord>;
  if (typeof r.id !== 'number' || !Number.isInteger(r.id)) return 'a request line needs an integer "id"';
  if (typeof r.ts !== 'number' || !Number.isFinite(r.ts)) return 'a request line needs "ts" (ms since the epoch)';
  if (typeof r.method !== 'string' || typeof r.path !== 'string') return 'a request line needs "method" and "path"';
  const isRecord = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!isRecord(r.requestHeaders) || !isRecord(r.responseHeaders) || !isRecord(r.peer)) return 'a request line needs "requestHeaders", "responseHeaders" and "peer" objects';
  if (typeof r.requestBytes !== 'number' || typeof r.responseBytes !== 'number') return 'a request line needs "requestBytes" and "responseBytes"';
  return { answer: 'upstream', end: 'complete', ...r } as DoorRecord;
}

/** An exchange id as the deriver makes them: the seq of the frame that opened it, `.N` for a batch's Nth item. */
const EXCHANGE_ID = /^[1-9][0-9]*(\.[0-9]+)?$/;

/** A replay link, or a sentence saying which field is wrong. */
function toLink(v: Record<string, unknown>): StoredLink | string {
  if (typeof v.exchangeId !== 'string' || !EXCHANGE_ID.test(v.exchangeId)) return 'a link line needs "exchangeId", an exchange id such as "12" or "12.1"';
  if (typeof v.replayOf !== 'string' || !EXCHANGE_ID.test(v.replayOf)) return 'a link line needs "replayOf", an exchange id such as "12" or "12.1"';
  if (typeof v.mode !== 'string' || v.mode === '') return 'a link line needs "mode" (session, fresh or widget)';
  if (typeof v.ts !== 'number' || !Number.isFinite(v.ts)) return 'a link line needs "ts" (ms since the epoch)';
  return { exchangeId: v.exchangeId, replayOf: v.replayOf, mode: v.mode, ts: v.ts };
}
