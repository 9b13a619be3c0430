/**
 * Large frames written from a worker thread, so one big body never holds the tap's thread.
 *
 * Storing a 50 MB result on the tap's thread cost about a second of one synchronous call (the
 * SQLite INSERT binding and copying the text into overflow pages), plus the decode, the join of
 * the decoded pieces and the redaction pre-check over the whole text; every other client's
 * requests waited behind it (profile-tap --large=50). Here a body past LARGE_BODY_BYTES goes to
 * the writer as bytes while it streams (copied into a 1 MiB block that is posted, a copy, each
 * time it fills: the tap's own chunks may still be queued on the client's socket, so they are
 * never transferred, and a reused block costs this thread no garbage). When the pipeline says
 * so (after every earlier frame is committed) the writer, which decoded the blocks as they came,
 * builds the body's skeleton (frame-skeleton.ts), inserts all of the
 * text but its head (the first FRAME_RAW_LIMIT characters) as pieces of PART_CHARS characters on
 * its own connection, in one transaction (one 50 MB value made SQLite copy it twice, over 100 MB
 * for the write alone: migration 8), and answers with what the tap's thread needs to derive, write
 * and publish the frame: its length, byte count, head, piece count and skeleton. The tap's thread
 * writes the frame's row (the head) with its derived rows, so the frame appears to readers whole
 * and at once, and never holds the whole text.
 *
 * What the writer does not do: redaction (a body that mentions a secret's name, or has no
 * skeleton, comes back as text and takes the tap's thread's path). Small frames never come here:
 * the pipeline batches them per tick (redaction on the tap's thread, then deriving and the write on
 * the capture engine's worker: worker-engine.ts); a hand-off per frame costs more than their whole
 * capture.
 *
 * The worker is large-writer-worker.ts; its messages are engine-contract.ts's `LargeRequest` and
 * `LargeAnswer`.
 */
import { FRAME_RAW_LIMIT, type Frame } from '@mcpscope/protocol';
import { AnsweringWorker, moduleWorkerUrl } from './answering-worker.js';
import { failureError, type LargeAnswer, type LargeRequest, type LargeWriterData } from './engine-contract.js';
import type { LargeBody } from './record-port.js';

/** The blocks a large body crosses the thread in. */
const BLOCK_BYTES = 1024 * 1024;
/** Characters per stored piece of a large frame's text (migration 8: `frame_parts`). */
const PART_CHARS = 1024 * 1024;
/** The writer thread's CPU priority (Linux nice; the tap's thread keeps 0). */
const WRITER_NICE = 10;
/** How long closing waits for a write under way. */
const SETTLE_MS = 30_000;
/** How long the writer's connection waits for another connection's lock (the engine's, a reader's). */
const BUSY_MS = 10_000;

/** The writer's answer for one frame. */
export type LargeResult =
  | { kind: 'stored'; chars: number; bytes: number; head: string; pieces: number; skeleton: string }
  /** The tap's thread must handle it (redaction, or no skeleton): the text, decoded. */
  | { kind: 'returned'; text: string }
  | { kind: 'failed'; error: Error };

/** One capture file's large-frame writer: a worker thread, started on the first large body. */
export class LargeWriter {
  private thread: AnsweringWorker<LargeAnswer> | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, (result: LargeResult) => void>();
  private failed: Error | undefined;

  constructor(private readonly file: string) {}

  /** A new body to push bytes into; undefined when the writer cannot be used (it failed). */
  open(): LargeBody | undefined {
    if (this.failed) return undefined;
    const thread = this.start();
    const id = ++this.nextId;
    let block = new Uint8Array(BLOCK_BYTES);
    let used = 0;
    let gone = false;
    const send = () => {
      if (used === 0) return;
      // Cloned into the message (one copy, outside this thread's heap), so the block is reused:
      // a fresh block per MiB would leave this thread's GC a trail of 1 MiB buffers to collect.
      thread.post({ type: 'block', id, block: block.subarray(0, used) } satisfies LargeRequest);
      used = 0;
    };
    const body: LargeBody & { id: number; seal(): void } = {
      id,
      push(chunk) {
        if (gone) return;
        let from = 0;
        while (from < chunk.length) {
          const n = Math.min(chunk.length - from, BLOCK_BYTES - used);
          block.set(chunk.subarray(from, from + n), used);
          used += n;
          from += n;
          if (used === BLOCK_BYTES) send();
        }
      },
      abandon() {
        if (gone) return;
        gone = true;
        thread.post({ type: 'drop', id } satisfies LargeRequest);
      },
      seal() {
        send();
        block = new Uint8Array(0);
        gone = true;
      },
    };
    return body;
  }

  /**
   * Stores `frame`'s text (`body`'s bytes) but its head, once every earlier frame is committed:
   * the caller says so by calling this. `done` runs once with the outcome, from a later turn of the event
   * loop, or from `settle()`.
   */
  write(body: LargeBody, frame: Frame, done: (result: LargeResult) => void): void {
    const b = body as LargeBody & { id: number; seal(): void };
    b.seal();
    if (!this.thread?.alive) {
      // The worker died after the body began: the frame is lost (the pipeline counts it).
      const error = this.failed ?? new Error('the large-frame writer is stopped');
      return void setImmediate(() => done({ kind: 'failed', error }));
    }
    this.waiting.set(b.id, done);
    this.thread.post({ type: 'write', id: b.id, seq: frame.seq } satisfies LargeRequest);
  }

  /** Waits (blocking, bounded) for every write under way and delivers its outcome now. */
  settle(): void {
    this.thread?.settle(() => this.waiting.size > 0, SETTLE_MS);
  }

  /** Closes the worker's connection (after a write under way) and ends it. */
  stop(): void {
    this.settle();
    this.thread?.stop();
    this.thread = undefined;
  }

  private start(): AnsweringWorker<LargeAnswer> {
    if (this.thread) return this.thread;
    const data: LargeWriterData = { file: this.file, busyMs: BUSY_MS, headChars: FRAME_RAW_LIMIT, partChars: PART_CHARS, nice: WRITER_NICE };
    this.thread = new AnsweringWorker<LargeAnswer>(moduleWorkerUrl('large-writer-worker', import.meta.url), { ...data }, (answer) => this.answered(answer), (error) => this.fail(new Error(`the large-frame writer stopped: ${error.message}`)));
    return this.thread;
  }

  private answered(answer: LargeAnswer): void {
    const done = this.waiting.get(answer.id);
    if (!done) return;
    this.waiting.delete(answer.id);
    if (answer.kind === 'failed') done({ kind: 'failed', error: failureError(answer.error) });
    else if (answer.kind === 'returned') done({ kind: 'returned', text: answer.text });
    else done({ kind: 'stored', chars: answer.chars, bytes: answer.bytes, head: answer.head, pieces: answer.pieces, skeleton: answer.skeleton });
  }

  /** The worker died: what waits fails (counted by the pipeline), and no new body comes here. */
  private fail(error: Error): void {
    this.failed = error;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const done of waiting) done({ kind: 'failed', error });
  }
}
