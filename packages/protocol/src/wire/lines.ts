/**
 * Newline-delimited framing for stdio, split on bytes (never on decoded text) so a multi-byte
 * character across two chunks is never cut. One trailing `\r` is stripped, as the MCP SDK does.
 * A line longer than the cap is reported, not buffered without bound.
 */

export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export interface LineItem {
  text: string;
  /** Bytes of the whole line, without its line end. */
  byteLength: number;
  /** True when the line exceeded the cap: `text` holds only its first `maxBytes` bytes. */
  truncated: boolean;
}

export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private overflowBytes = 0;

  constructor(private readonly maxBytes = MAX_LINE_BYTES) {}

  push(chunk: Uint8Array): LineItem[] {
    const out: LineItem[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, nl));
      out.push(this.take());
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
    return out;
  }

  /** Flushes a final line that had no newline (the stream ended). */
  end(): LineItem[] {
    return this.buffered > 0 || this.overflowBytes > 0 ? [this.take()] : [];
  }

  private append(part: Uint8Array): void {
    if (part.length === 0) return;
    const room = this.maxBytes - this.buffered;
    if (part.length <= room) {
      this.chunks.push(part.slice());
      this.buffered += part.length;
    } else {
      if (room > 0) this.chunks.push(part.slice(0, room));
      this.buffered += Math.max(room, 0);
      this.overflowBytes += part.length - Math.max(room, 0);
    }
  }

  private take(): LineItem {
    const bytes = concat(this.chunks, this.buffered);
    const truncated = this.overflowBytes > 0;
    let end = bytes.length;
    if (!truncated && end > 0 && bytes[end - 1] === 13) end--;
    const item: LineItem = {
      text: this.decoder.decode(bytes.subarray(0, end)),
      byteLength: this.buffered + this.overflowBytes - (end < bytes.length ? 1 : 0),
      truncated,
    };
    this.chunks = [];
    this.buffered = 0;
    this.overflowBytes = 0;
    return item;
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
