/**
 * Imports: a file's frames (a JSONL or HAR file, or `mcpscope open` of a capture file), stored
 * like live traffic through the pipeline, with what refers to them by the file's numbers
 * renumbered: door records get new ids, frames' `requestId` follows them, and replay links and
 * marks follow the frames' new seqs.
 */
import type { CaptureMark, DoorRecord, FrameInput } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';
import type { CaptureStore } from './capture-store.js';
import type { CapturePipeline } from './capture-pipeline.js';
import type { StoredLink } from './replay-links.js';

/** A file's frames, and what refers to them by the file's seqs. */
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

/** Frames an import hands the pipeline at once, at most: a tick's worth (pipeline-limits.ts, WRITE_LIMIT). */
export const IMPORT_CHUNK_FRAMES = 512;
/** Text an import hands the pipeline at once, at most (a large frame alone may pass it). */
export const IMPORT_CHUNK_CHARS = 4 * 1024 * 1024;

/**
 * One import into a running capture, a chunk of frames at a time: each chunk is recorded, then
 * `frames()` resolves once it is written, so the import yields the event loop between chunks (the
 * tap forwards live calls meanwhile; their frames interleave with the import's) and never holds
 * more than a chunk in the pipeline's queue. Frames come first, in file order; what refers to them
 * by the file's numbers (door records, replay links, marks) comes at the end (`finish`), as
 * mcpscope JSONL orders it. Door records get new ids when a frame first names them (a frame is
 * stored before its record arrives), the rest at the end. Refused while capture is paused.
 */
export class CaptureImport {
  private readonly before: number;
  private readonly idOf = new Map<number, number>();
  private readonly seqOf = new Map<number, number>();

  constructor(
    private readonly pipeline: CapturePipeline,
    private readonly store: CaptureStore,
  ) {
    const status = pipeline.health.status();
    if (status.reason !== undefined) throw new InspectorError('capture_paused', `Capture is paused (${status.reason}): nothing can be imported until the capture file takes writes again.`);
    if (status.pausedByUser) throw new InspectorError('capture_paused', 'Capture is paused from the dashboard: resume it to import (an import is stored like live traffic).');
    this.before = pipeline.head;
  }

  /** Records a chunk of frames (`originalSeqs[i]` is `frames[i]`'s seq in the file, if it has one); resolves once they are written. */
  async frames(frames: readonly FrameInput[], originalSeqs: readonly (number | undefined)[] = []): Promise<void> {
    frames.forEach((frame, i) => {
      const requestId = frame.http?.requestId;
      if (requestId !== undefined && !this.idOf.has(requestId)) this.idOf.set(requestId, this.pipeline.nextDoorId());
      const seq = this.pipeline.record(relinked(frame, this.idOf));
      const original = originalSeqs[i];
      if (original !== undefined) this.seqOf.set(original, seq);
    });
    await this.pipeline.whenWritten();
  }

  /** Stores what refers to the frames by the file's numbers, once every frame is in. */
  finish({ requests = [], links = [], marks = [] }: Omit<ImportBatch, 'frames' | 'originalSeqs'>): void {
    for (const r of requests) if (!this.idOf.has(r.id)) this.idOf.set(r.id, this.pipeline.nextDoorId());
    importRequests(this.pipeline, requests, (original) => this.seqOf.get(original), this.idOf);
    const linked: string[] = [];
    if (links.length > 0) {
      const restoreLinks = this.store.replayLinks.restorer(links);
      for (const original of this.seqOf.keys()) linked.push(...restoreLinks(original, this.seqOf));
    }
    this.pipeline.flush();
    // The links follow the frames in the file, so their exchanges are written without them.
    this.store.replayLinks.annotateStored(linked, (stored) => this.store.summary(stored));
    this.pipeline.marks.importAll(marks, this.seqOf, this.before);
  }
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
