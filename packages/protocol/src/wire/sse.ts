/**
 * Incremental Server-Sent Events parser (WHATWG "event stream interpretation").
 *
 * Fed arbitrary byte chunks: a chunk may end inside a line, a field, between CR and LF, or inside
 * a multi-byte UTF-8 character. Unlike a browser's EventSource it keeps what an inspector needs to
 * show: comment lines (keep-alives), `retry:` fields, and events whose `data` is empty (the
 * 2025-11-25 priming event `id: X\ndata: \n\n`).
 */

export interface SseEvent {
  type: 'event';
  /** The `data` lines joined with `\n`, exactly as the spec builds the data buffer. */
  data: string;
  /** True when at least one `data` field was present (an empty `data:` counts). */
  hasData: boolean;
  event?: string;
  id?: string;
  retry?: number;
}

export interface SseComment {
  type: 'comment';
  text: string;
}

export type SseItem = SseEvent | SseComment;

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  /** A chunk ended on CR: if the next begins with LF, that LF belongs to the same line end. */
  private lastWasCr = false;
  private dataLines: string[] = [];
  private hasData = false;
  private eventName: string | undefined;
  private eventId: string | undefined;
  private retry: number | undefined;

  /** Feeds bytes (or already-decoded text) and returns the items completed by them. */
  push(chunk: Uint8Array | string): SseItem[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.lastWasCr && text.startsWith('\n')) text = text.slice(1);
    this.lastWasCr = false;
    const out: SseItem[] = [];
    let start = 0;
    const buf = this.pending + text;
    const offset = this.pending.length;
    this.pending = '';
    // `pending` never holds a line end, so scanning can resume where it stopped.
    for (let i = offset; i < buf.length; i++) {
      const ch = buf.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      this.line(buf.slice(start, i), out);
      if (ch === 13) {
        if (i + 1 < buf.length) {
          if (buf.charCodeAt(i + 1) === 10) i++;
        } else {
          this.lastWasCr = true;
        }
      }
      start = i + 1;
    }
    this.pending = buf.slice(start);
    return out;
  }

  /** Ends the stream: a trailing event without its blank line is discarded, as the spec says. */
  end(): SseItem[] {
    const rest = this.decoder.decode();
    const out = rest ? this.push(rest) : [];
    this.pending = '';
    this.reset();
    return out;
  }

  private line(line: string, out: SseItem[]): void {
    if (line === '') {
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
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        this.hasData = true;
        break;
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
      if (this.eventName !== undefined) event.event = this.eventName;
      if (this.eventId !== undefined) event.id = this.eventId;
      if (this.retry !== undefined) event.retry = this.retry;
      out.push(event);
    }
    this.reset();
  }

  private reset(): void {
    this.dataLines = [];
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
