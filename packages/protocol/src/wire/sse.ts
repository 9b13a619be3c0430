/**
 * Incremental Server-Sent Events parser (WHATWG "event stream interpretation").
 *
 * Fed arbitrary byte chunks: a chunk may end inside a line, a field, between CR and LF, or inside
 * a multi-byte UTF-8 character. Unlike a browser's EventSource it keeps what an inspector needs to
 * show: comment lines (keep-alives), `retry:` fields, and events whose `data` is empty (the
 * 2025-11-25 priming event `id: X\ndata: \n\n`).
 */

/** What one recorded event may hold by default: 32 Mi UTF-16 code units (about 64 MB in memory). */
export const DEFAULT_MAX_EVENT_CHARS = 32 * 1024 * 1024;

/** The longest field prefix the spec knows, `retry: `, with a margin. */
const FIELD_ROOM = 8;

export interface SseEvent {
  type: 'event';
  /** The `data` lines joined with `\n`, exactly as the spec builds the data buffer. */
  data: string;
  /** True when at least one `data` field was present (an empty `data:` counts). */
  hasData: boolean;
  event?: string;
  id?: string;
  retry?: number;
  /**
   * Set when the event was longer than the parser's cap: `data` then holds only its first
   * `maxEventChars` characters and `size` is the length (in characters) the whole data had.
   */
  truncated?: true;
  size?: number;
}

export interface SseComment {
  type: 'comment';
  text: string;
}

export type SseItem = SseEvent | SseComment;

export interface SseParserOptions {
  /** The most characters of one line, and of one event's data, that are kept (the rest is counted). */
  maxEventChars?: number;
}

/**
 * Linear in the bytes fed, however they are chunked: only the new chunk is scanned for line ends,
 * and the unfinished line is kept as a list of pieces that is joined once, when its end arrives
 * (rebuilding `pending + chunk` on every push was quadratic in the length of a line). Nothing
 * grows past `maxEventChars`: a longer line or event is cut there and flagged, its size counted.
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly max: number;
  /** The unfinished line, in pieces; `pendingKept` characters of it are held, `pendingSize` seen. */
  private pending: string[] = [];
  private pendingKept = 0;
  private pendingSize = 0;
  /** A chunk ended on CR: if the next begins with LF, that LF belongs to the same line end. */
  private lastWasCr = false;
  private dataLines: string[] = [];
  private dataKept = 0;
  private dataSize = 0;
  private hasData = false;
  private eventName: string | undefined;
  private eventId: string | undefined;
  private retry: number | undefined;

  constructor(options: SseParserOptions = {}) {
    this.max = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  }

  /** Feeds bytes (or already-decoded text) and returns the items completed by them. */
  push(chunk: Uint8Array | string): SseItem[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.lastWasCr && text.startsWith('\n')) text = text.slice(1);
    this.lastWasCr = false;
    const out: SseItem[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      this.keep(text, start, i);
      this.line(out);
      if (ch === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.lastWasCr = true;
        }
      }
      start = i + 1;
    }
    if (start < text.length) this.keep(text, start, text.length);
    return out;
  }

  /** Adds `text[from, to)` to the unfinished line, up to the cap. */
  private keep(text: string, from: number, to: number): void {
    this.pendingSize += to - from;
    // A line holds its field name too (`data: `): room for it beyond the data cap.
    const room = this.max + FIELD_ROOM - this.pendingKept;
    if (room <= 0 || from === to) return;
    const piece = to - from > room ? text.slice(from, from + room) : from === 0 && to === text.length ? text : text.slice(from, to);
    this.pending.push(piece);
    this.pendingKept += piece.length;
  }

  /** Ends the stream: a trailing event without its blank line is discarded, as the spec says. */
  end(): SseItem[] {
    const rest = this.decoder.decode();
    const out = rest ? this.push(rest) : [];
    this.takeLine();
    this.reset();
    return out;
  }

  /** The unfinished line as one string (and whether it was cut); the line buffer is emptied. */
  private takeLine(): { line: string; size: number } {
    const line = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    const size = this.pendingSize;
    this.pending = [];
    this.pendingKept = 0;
    this.pendingSize = 0;
    return { line, size };
  }

  private line(out: SseItem[]): void {
    const { line, size } = this.takeLine();
    if (size === 0) {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) {
      out.push({ type: 'comment', text: line.slice(1).replace(/^ /, '') });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    let skipped = colon === -1 ? 0 : colon + 1;
    if (value.startsWith(' ')) {
      value = value.slice(1);
      skipped++;
    }
    switch (field) {
      case 'data': {
        // The data buffer counts the line feed that joins this line to the previous one.
        const joiner = this.hasData ? 1 : 0;
        this.dataSize += joiner + size - skipped;
        const room = this.max - this.dataKept - joiner;
        if (room >= 0) {
          const kept = value.length > room ? value.slice(0, room) : value;
          this.dataLines.push(kept);
          this.dataKept += joiner + kept.length;
        }
        this.hasData = true;
        break;
      }
      case 'event':
        this.eventName = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.eventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        // Unknown fields are ignored by the spec; nothing to keep.
        break;
    }
  }

  private dispatch(out: SseItem[]): void {
    if (this.hasData || this.eventId !== undefined || this.eventName !== undefined || this.retry !== undefined) {
      const event: SseEvent = { type: 'event', data: this.dataLines.join('\n'), hasData: this.hasData };
      if (this.dataSize > event.data.length) {
        event.truncated = true;
        event.size = this.dataSize;
      }
      if (this.eventName !== undefined) event.event = this.eventName;
      if (this.eventId !== undefined) event.id = this.eventId;
      if (this.retry !== undefined) event.retry = this.retry;
      out.push(event);
    }
    this.reset();
  }

  private reset(): void {
    this.dataLines = [];
    this.dataKept = 0;
    this.dataSize = 0;
    this.hasData = false;
    this.eventName = undefined;
    this.eventId = undefined;
    this.retry = undefined;
  }
}

/** Serialises one SSE event the way servers write it (used by tests and by rewriting proxies). */
export function formatSseEvent(event: { data: string; event?: string; id?: string; retry?: number }): string {
  let out = '';
  if (event.event !== undefined) out += `event: ${event.event}\n`;
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  if (event.retry !== undefined) out += `retry: ${event.retry}\n`;
  for (const line of event.data.split('\n')) out += `data: ${line}\n`;
  return `${out}\n`;
}
