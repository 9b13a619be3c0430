/**
 * The capture worker thread: the whole capture pipeline (redaction, parsing, deriving, the SQLite
 * write, retention, deriver snapshots) on its own connection to the capture file, so that none of
 * it runs on the thread that forwards traffic. The tap's thread (worker-pipeline.ts) numbers the
 * frames and posts them here once per tick; each committed batch goes back as the hub needs it
 * (frame views, not whole bodies).
 *
 * Messages in: `take` (frames with their seq, changed door records, replay links), `flush` and
 * `close` (the tap's thread waits on `sync` until they are done). Out: `ready` once the file is
 * open and the deriver warm, then `batch` after each commit.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { toFrameView, type DoorRecord, type FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from './capture-store.js';
import { CapturePipeline, type CaptureBatch } from './capture-pipeline.js';
import type { RetentionLimits } from './retention.js';

export interface CaptureWorkerData {
  role: 'mcpscope-capture';
  file: string;
  limits: RetentionLimits;
  /** Int32Array over a SharedArrayBuffer: [0] is the last `flush`/`close` token done. */
  sync: SharedArrayBuffer;
  /** Where `ready` and batches go: a port the tap's thread can also drain synchronously. */
  out: MessagePort;
}

export type ToWorker =
  | { type: 'take'; frames: (FrameInput & { seq: number })[]; doors: DoorRecord[]; links: ReplayLink[] }
  | { type: 'flush'; token: number; everything: boolean }
  | { type: 'close'; token: number };

/** A replay link made on the tap's thread, written here before the frames of the same message. */
export interface ReplayLink {
  exchangeId: string;
  replayOf: string;
  mode: string;
  ts: number;
}

export type FromWorker = { type: 'ready' } | { type: 'batch'; batch: CaptureBatch };

/** Runs the worker's side; called by the worker script (and by the bundle's entry in a worker). */
export function runCaptureWorker(): void {
  const data = workerData as CaptureWorkerData;
  const port = parentPort!;
  const sync = new Int32Array(data.sync);
  const done = (token: number) => {
    Atomics.store(sync, 0, token);
    Atomics.notify(sync, 0);
  };
  // The tap's thread holds the file's lock and opened (and migrated) the file first.
  const store = new CaptureStore(data.file, { lock: false });
  const pipeline = new CapturePipeline(store, data.limits);
  const out = data.out;
  out.postMessage({ type: 'ready' } satisfies FromWorker);
  pipeline.onBatch((batch) => {
    const message: FromWorker = { type: 'batch', batch: { ...batch, frames: [], views: batch.frames.map((f) => toFrameView(f)) } };
    out.postMessage(message);
  });
  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'take':
        for (const l of message.links) store.replayLinks.link(l.exchangeId, l.replayOf, l.mode, l.ts);
        for (const frame of message.frames) {
          const { seq, ...input } = frame;
          pipeline.record(input, seq);
        }
        for (const record of message.doors) pipeline.doorChanged(record);
        return;
      case 'flush':
        pipeline.flush(message.everything);
        return done(message.token);
      case 'close':
        try {
          pipeline.close();
          store.close();
        } finally {
          done(message.token);
          out.close();
          port.close();
        }
    }
  });
}

if ((workerData as Partial<CaptureWorkerData> | null)?.role === 'mcpscope-capture') runCaptureWorker();
