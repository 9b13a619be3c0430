/**
 * The text capture keeps of a body that may be any size. Up to `limit` bytes it is the whole body;
 * past that the body is "too large to keep whole" and only its first `cutKeep` bytes are kept as
 * evidence (a cut message can never be read as one anyway), with the count of all of it. The tap
 * forwards every byte; what capture holds (and what the store, the deriver and the dashboard then
 * copy) stays bounded, so one huge body can neither exhaust memory nor exceed the longest string
 * V8 can make (about 512 MiB).
 *
 * Bytes are decoded as they arrive, chunk by chunk, so a large body's decoding is spread over the
 * ticks it streams in (where other clients' requests interleave) instead of one concatenation and
 * one decode of the whole body after its last byte, which held the event loop for a 50 MB result
 * (profile-tap --large=50: Buffer concat and toString about 13 % of the tap's busy time). The
 * received chunks are not kept: the decoded text is the only copy.
 *
 * Given `spill` (a response body on a capture file), a body that grows past LARGE_BODY_BYTES
 * within the limit goes to the large-frame writer thread instead (capture/large-writer.ts): its
 * bytes so far (kept until then, at most that many) and every later chunk are pushed there, and
 * nothing more is decoded here. The decoded head stays, in case the body then passes the limit.
 */
import { StringDecoder } from 'node:string_decoder';
import { LARGE_BODY_BYTES, type LargeBody } from '../../capture/index.js';

/** Bytes of one HTTP body kept whole for capture: above the 50 MB results users inspect whole. */
export const MAX_CAPTURED_BODY_BYTES = 64 * 1024 * 1024;
/** Bytes a body past the limit keeps: enough to see what it was. */
export const CUT_BODY_KEPT_BYTES = 1024 * 1024;

export class CappedText {
  /** The body decoded so far (while within the limit). */
  private pieces: string[] = [];
  private readonly decoder = new StringDecoder('utf8');
  /** Past the limit: the text of the first `cutKeep` bytes, all that is kept. */
  private head: string | undefined;
  private readonly cutKeep: number;
  private decoded: string | undefined;
  private decodedBytes = 0;
  private stopped = false;
  /** Bytes seen, kept or not. */
  size = 0;
  /** Set once the body went to the large-frame writer (see the header). */
  large: LargeBody | undefined;
  /** The chunks received while the body may still go to the writer. */
  private received: Uint8Array[] = [];

  constructor(
    private readonly limit = MAX_CAPTURED_BODY_BYTES,
    private spill?: () => LargeBody | undefined,
  ) {
    this.cutKeep = Math.min(CUT_BODY_KEPT_BYTES, limit);
  }

  push(chunk: Uint8Array): void {
    this.size += chunk.length;
    if (this.large) {
      if (this.size <= this.limit) return this.large.push(chunk);
      return this.leaveWriter();
    }
    if (this.head !== undefined) return;
    this.decoded = undefined;
    // (The decoder may hold up to 3 bytes of a character not yet whole: decode past the head by that.)
    const headDecoded = this.decodedBytes >= this.cutKeep + 3;
    if (headDecoded && this.size > this.limit) return this.cutToHead();
    if (this.spill) {
      if (headDecoded && this.size > LARGE_BODY_BYTES && this.toWriter(chunk)) return;
      this.received.push(chunk);
    }
    const text = this.decoder.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.decodedBytes += chunk.length;
    if (text.length > 0) this.pieces.push(text);
    if (this.size > this.limit) this.cutToHead();
  }

  /** Hands the body to the large-frame writer; false when it cannot take it. */
  private toWriter(chunk: Uint8Array): boolean {
    const large = this.spill!();
    this.spill = undefined;
    const received = this.received;
    this.received = [];
    if (!large) return false;
    this.large = large;
    for (const c of received) large.push(c);
    large.push(chunk);
    return true;
  }

  /** The body passed the limit after all: the writer forgets it, and the head decoded here stays. */
  private leaveWriter(): void {
    this.large!.abandon();
    this.large = undefined;
    this.cutToHead();
  }

  /** Too large to keep whole: only the text of the first `cutKeep` bytes stays. */
  private cutToHead(): void {
    // Bytes of a character not yet whole are within the head here: decoded, they are U+FFFD.
    const rest = this.decoder.end();
    if (rest.length > 0) this.pieces.push(rest);
    const kept: string[] = [];
    let bytes = 0;
    for (const piece of this.pieces) {
      const n = Buffer.byteLength(piece);
      if (bytes + n <= this.cutKeep) {
        kept.push(piece);
        bytes += n;
        if (bytes === this.cutKeep) break;
        continue;
      }
      // A character cut in half at the end becomes U+FFFD, as when bytes are decoded.
      kept.push(Buffer.from(piece).toString('utf8', 0, this.cutKeep - bytes));
      break;
    }
    this.head = kept.join('');
    this.pieces = [];
  }

  /**
   * The body ends here, before its last byte (it is recorded now: the client left, or the answer
   * came first): what arrived is kept as a cut body's head, and the writer forgets it.
   */
  stop(): void {
    this.stopped = true;
    this.spill = undefined;
    this.received = [];
    if (this.large) this.leaveWriter();
    else if (this.head === undefined) this.cutToHead();
  }

  /** Not kept whole: past the limit, or stopped before its end. */
  get cut(): boolean {
    return this.stopped || this.size > this.limit;
  }

  /** The kept text, decoded as UTF-8 (a character cut in half at the end becomes U+FFFD). */
  text(): string {
    if (this.head !== undefined) return this.head;
    if (this.decoded === undefined) {
      const rest = this.decoder.end();
      if (rest.length > 0) this.pieces.push(rest);
      this.decoded = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
      this.pieces = [this.decoded];
    }
    return this.decoded;
  }
}
