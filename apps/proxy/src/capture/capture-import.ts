/**
 * Imports: frames that arrive all at once (a JSONL or HAR file, or `mcpscope open` of a capture
 * file), stored like live traffic through the pipeline, with what refers to them by the file's
 * numbers renumbered: door records get new ids, frames' `requestId` follows them, and replay links
 * and marks follow the frames' new seqs.
 */
import type { CaptureMark, DoorRecord, FrameInput } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';
import type { CaptureStore } from './capture-store.js';
import type { CapturePipeline } from './capture-pipeline.js';
import type { StoredLink } from './replay-links.js';

/** What an import hands the pipeline at once: a file's frames, and what refers to them by the file's seqs. */
export interface ImportBatch {
  frames: readonly FrameInput[];
  /** Door records; their `frameSeqs` are the file's seqs. */
  requests?: readonly DoorRecord[];
  /** Each frame's seq in the file (`originalSeqs[i]` is `frames[i]`'s), to re-link what refers to it; empty for HAR. */
  originalSeqs?: readonly number[];
  /** Replay links; their exchange ids start with the file's seqs. */
  links?: readonly StoredLink[];
  /** Marks; their `afterSeq` is the file's seq. */
  marks?: readonly CaptureMark[];
}

type DoorSink = Pick<CapturePipeline, 'nextDoorId' | 'doorChanged'>;

/**
 * Records a file's frames and stores them now, with the door records that came with them, under
 * new ids: their frames re-linked from the file's seqs (`originalSeqs[i]` is `frames[i]`'s), and
 * the frames' `requestId` from the file's record ids. Refused while capture is paused.
 */
export function importInto(pipeline: CapturePipeline, store: CaptureStore, { frames, requests = [], originalSeqs = [], links = [], marks = [] }: ImportBatch): void {
  const status = pipeline.health.status();
  if (status.reason !== undefined) throw new InspectorError('capture_paused', `Capture is paused (${status.reason}): nothing can be imported until the capture file takes writes again.`);
  if (status.pausedByUser) throw new InspectorError('capture_paused', 'Capture is paused from the dashboard: resume it to import (an import is stored like live traffic).');
  const before = pipeline.head;
  const idOf = doorIds(pipeline, requests);
  const seqOf = new Map<number, number>();
  const restoreLinks = store.replayLinks.restorer(links);
  frames.forEach((frame, i) => {
    const seq = pipeline.record(relinked(frame, idOf));
    const original = originalSeqs[i];
    if (original === undefined) return;
    seqOf.set(original, seq);
    restoreLinks(original, seqOf);
  });
  importRequests(pipeline, requests, (original) => seqOf.get(original), idOf);
  pipeline.flush();
  pipeline.marks.importAll(marks, seqOf, before);
}

/** New ids for door records read from a file, by their id there. */
export function doorIds(sink: DoorSink, requests: readonly DoorRecord[]): Map<number, number> {
  return new Map(requests.map((r) => [r.id, sink.nextDoorId()]));
}

/** Door records read from a file, stored under the ids `idOf` gave them; frames re-linked by `seqOf`. */
export function importRequests(sink: DoorSink, requests: readonly DoorRecord[], seqOf: (original: number) => number | undefined, idOf = doorIds(sink, requests)): void {
  for (const r of requests) {
    const record: DoorRecord = { ...r, id: idOf.get(r.id)!, rev: 0 };
    if (r.frameSeqs) record.frameSeqs = r.frameSeqs.map(seqOf).filter((seq): seq is number => seq !== undefined);
    sink.doorChanged(record);
  }
}

/** A frame with its `http.requestId` moved to the imported record's new id (or dropped: none came). */
export function relinked(frame: FrameInput, idOf: ReadonlyMap<number, number>): FrameInput {
  const requestId = frame.http?.requestId;
  if (requestId === undefined) return frame;
  const { requestId: _old, ...http } = frame.http!;
  const id = idOf.get(requestId);
  return { ...frame, http: id === undefined ? http : { ...http, requestId: id } };
}
