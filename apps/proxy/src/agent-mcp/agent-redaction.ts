/**
 * What the agent server may show of the capture: exactly what `mcpscope export --exchange ID`
 * would write (the export redactor, redaction/export-redaction.ts, with its built-in rules).
 * Each exchange is redacted as its own export is: the redactor first learns the secret values
 * in all of the exchange's frames (a password in tool arguments), then every text shown about
 * that exchange (bodies, the error message, findings) loses them and their echoes ("invalid
 * password hunter2"), bearer credentials and JWTs.
 *
 * Bodies are redacted whole and only then cut, so a long body cut for the model is never one
 * that could not be parsed and redacted; offsets into a body are offsets into the redacted text.
 */
import type { ExchangeSummary, Frame } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import { Redactor } from '../redaction/export-redaction.js';

/** A redactor that has learned the secrets of the exchanges' frames. */
export function redactorFor(reader: CaptureReader, exchanges: readonly Pick<ExchangeSummary, 'frameSeqs'>[]): Redactor {
  const redactor = new Redactor({ enabled: true });
  for (const ex of exchanges) for (const frame of reader.frames(ex.frameSeqs)) redactor.learn(frame);
  return redactor;
}

/** The frames, whole and redacted, oldest first. */
export function redactedFrames(reader: CaptureReader, redactor: Redactor, seqs: readonly number[]): Frame[] {
  return reader.frames(seqs).map((frame) => redactor.frame(frame));
}

/** One frame's text as its exchange's export would hold it; undefined when there is no such frame. */
export function redactedFrameText(reader: CaptureReader, seq: number): string | undefined {
  const exchanges = reader.exchangeIdsOfFrame(seq).flatMap((id) => reader.exchange(id) ?? []);
  const [frame] = redactedFrames(reader, redactorFor(reader, exchanges), [seq]);
  return frame?.raw;
}

/** A redactor without learned values: the built-in rules only (names, versions, keys). */
export const plainRedactor = () => new Redactor({ enabled: true });
