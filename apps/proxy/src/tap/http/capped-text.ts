/**
 * The text capture keeps of a body that may be any size. Up to `limit` bytes it is the whole body;
 * past that the body is "too large to keep whole" and only its first `cutKeep` bytes are kept as
 * evidence (a cut message can never be read as one anyway), with the count of all of it. The tap
 * forwards every byte; what capture holds (and what the store, the deriver and the dashboard then
 * copy) stays bounded, so one huge body can neither exhaust memory nor exceed the longest string
 * V8 can make (about 512 MiB).
 */

/** Bytes of one HTTP body kept whole for capture: above the 50 MB results users inspect whole. */
export const MAX_CAPTURED_BODY_BYTES = 64 * 1024 * 1024;
/** Bytes a body past the limit keeps: enough to see what it was. */
export const CUT_BODY_KEPT_BYTES = 1024 * 1024;

export class CappedText {
  private chunks: Uint8Array[] = [];
  private kept = 0;
  private readonly cutKeep: number;
  /** Bytes seen, kept or not. */
  size = 0;

  constructor(private readonly limit = MAX_CAPTURED_BODY_BYTES) {
    this.cutKeep = Math.min(CUT_BODY_KEPT_BYTES, limit);
  }

  push(chunk: Uint8Array): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      if (this.kept > this.cutKeep) this.trim();
      if (this.kept >= this.cutKeep) return;
    }
    const room = (this.size > this.limit ? this.cutKeep : this.limit) - this.kept;
    const piece = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(piece);
    this.kept += piece.length;
  }

  /** Past the limit: only the first `cutKeep` bytes stay (copied, so the big chunks can go). */
  private trim(): void {
    const head = Buffer.allocUnsafe(this.cutKeep);
    let at = 0;
    for (const c of this.chunks) {
      if (at >= this.cutKeep) break;
      const n = Math.min(c.length, this.cutKeep - at);
      head.set(c.subarray(0, n), at);
      at += n;
    }
    this.chunks = [head];
    this.kept = this.cutKeep;
  }

  get cut(): boolean {
    return this.size > this.kept;
  }

  /** The kept text, decoded as UTF-8 (a character cut in half at the end becomes U+FFFD). */
  text(): string {
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
    this.chunks = [bytes];
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }
}
