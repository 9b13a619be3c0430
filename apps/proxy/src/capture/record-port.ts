/**
 * What the tap hands capture: each frame, and a large body's bytes as they stream. The tap holds
 * a `RecordPort`; compose/ wires it to the capture pipeline (or to nothing, with capture off).
 */
import type { FrameInput } from '@mcpscope/protocol';

/** Bodies past this many bytes go to the large-frame writer as they stream (a capture file only). */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** A large body on its way to the large-frame writer, pushed as it streams. */
export interface LargeBody {
  push(chunk: Uint8Array): void;
  /** The body will not be recorded (cut, or the capture closed): the writer forgets it. */
  abandon(): void;
}

/**
 * Records a frame and returns its seq (-1: not recorded). With `large`, the frame's text is that
 * body's and `input.raw` is ignored.
 */
export type RecordPort = (input: FrameInput, large?: LargeBody) => number;
