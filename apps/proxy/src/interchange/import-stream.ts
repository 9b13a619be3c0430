/**
 * The one import of a file into a running capture, used by `POST /api/import` and by
 * `mcpscope open`: the file is read as a stream and handed to the capture a chunk of frames at a
 * time (capture-import.ts: each chunk is written before the next is read, and the event loop
 * turns in between, so a live call through the tap is forwarded while a large import runs).
 *
 * mcpscope JSONL is read line by line as it arrives: what is held at once is one chunk of frames
 * and the lines not yet complete, plus what refers to frames by the file's numbers (door records,
 * links, marks, which follow the frames) and each frame's new seq. A HAR file is one JSON
 * document, read whole (bounded by `maxBytes`), then handed over in the same chunks.
 */
import type { CaptureMark, DoorRecord, FrameInput, ImportFormat, ImportProblem, ImportReport } from '@mcpscope/protocol';
import type { StoredLink } from '../capture/replay-links.js';
import { InspectorError } from '../core/errors.js';
import { IMPORT_CHUNK_CHARS, IMPORT_CHUNK_FRAMES, type ImportBatch } from '../capture/capture-import.js';
import { JsonlLineReader, looksLikeJsonl, readJsonlHeader } from './jsonl.js';
import { readHar } from './har-reader.js';
import { ImportShaper } from './import-shape.js';
import { parseHar } from './importer.js';

/** Where an import's frames go (a CaptureImport). */
export interface ImportTarget {
  frames(frames: readonly FrameInput[], originalSeqs?: readonly (number | undefined)[]): Promise<void>;
  finish(rest: Omit<ImportBatch, 'frames' | 'originalSeqs'>): void;
}

/** Bytes read before the format is decided (looksLikeJsonl looks at the first 200 characters). */
const SNIFF_BYTES = 1024;

/**
 * Imports the file `body` streams into the capture `start()` opens (called once there is something
 * to store). Throws InspectorError: `import_too_large` past `maxBytes`, `import_unreadable` for a
 * file in neither format, `import_empty` for one with no MCP traffic (nothing is stored then).
 */
export async function streamImport(body: AsyncIterable<Uint8Array | string>, fileName: string, maxBytes: number, start: () => ImportTarget): Promise<ImportReport> {
  const shaper = new ImportShaper(fileName);
  const chunks = bounded(body, maxBytes);
  const head: Buffer[] = [];
  let headBytes = 0;
  while (headBytes < SNIFF_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value);
    headBytes += next.value.length;
  }
  const first = Buffer.concat(head);
  const rest = (async function* () {
    yield first;
    yield* chunks;
  })();
  const text = first.toString('utf8').replace(/^\uFEFF/, '');
  const report = looksLikeJsonl(text) ? await streamJsonl(rest, shaper, start) : await importHar(rest, shaper, start);
  if (report.frames === 0 && !report.requests) {
    const why = report.problems[0] ? `${report.problems[0].where}: ${report.problems[0].message}` : 'the file holds no MCP traffic';
    throw new InspectorError('import_empty', `nothing to import from ${shaper.name}: ${why}`, { report });
  }
  return report;
}

/** The body's chunks as Buffers (a stream made from strings yields strings), refused once they pass `maxBytes`. */
async function* bounded(body: AsyncIterable<Uint8Array | string>, maxBytes: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    size += bytes.length;
    if (size > maxBytes) throw new InspectorError('import_too_large', `the file is more than ${maxBytes} bytes; mcpscope imports up to ${maxBytes}`);
    yield bytes;
  }
}

/** Whole lines of a byte stream, decoded (a newline byte never sits inside a UTF-8 character). */
async function* lines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let partial: Buffer[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      partial.push(chunk.subarray(start, nl));
      yield Buffer.concat(partial).toString('utf8');
      partial = [];
      start = nl + 1;
    }
    if (start < chunk.length) partial.push(chunk.subarray(start));
  }
  if (partial.length > 0) yield Buffer.concat(partial).toString('utf8');
}

/** Frames gathered into chunks for the target, by count and by text. */
class Chunker {
  private frames: FrameInput[] = [];
  private seqs: (number | undefined)[] = [];
  private chars = 0;
  private target: ImportTarget | undefined;

  constructor(private readonly start: () => ImportTarget) {}

  async add(frame: FrameInput, originalSeq?: number): Promise<void> {
    this.frames.push(frame);
    this.seqs.push(originalSeq);
    this.chars += frame.raw.length;
    if (this.frames.length >= IMPORT_CHUNK_FRAMES || this.chars >= IMPORT_CHUNK_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.frames.length === 0) return;
    const frames = this.frames;
    const seqs = this.seqs;
    this.frames = [];
    this.seqs = [];
    this.chars = 0;
    await this.opened().frames(frames, seqs);
  }

  opened(): ImportTarget {
    return (this.target ??= this.start());
  }
}

async function streamJsonl(chunks: AsyncIterable<Buffer>, shaper: ImportShaper, start: () => ImportTarget): Promise<ImportReport> {
  const chunker = new Chunker(start);
  const reader = new JsonlLineReader();
  const problems: ImportProblem[] = [];
  const rest: { requests: DoorRecord[]; links: StoredLink[]; marks: CaptureMark[] } = { requests: [], links: [], marks: [] };
  let lineNo = 0;
  for await (const line of lines(chunks)) {
    lineNo++;
    if (lineNo === 1) {
      const header = readJsonlHeader(line.replace(/^\uFEFF/, ''));
      if (!header.ok) throw unreadable(header.problem);
      continue;
    }
    const item = reader.read(line, lineNo);
    if (item === undefined) continue;
    if (item.kind === 'frame') await chunker.add(shaper.jsonlFrame(item.frame), item.frame.seq);
    else if (item.kind === 'request') rest.requests.push(shaper.request(item.request));
    else if (item.kind === 'link') rest.links.push(item.link);
    else if (item.kind === 'mark') rest.marks.push(item.mark);
    else problems.push(item.problem);
  }
  await chunker.flush();
  if (shaper.frames > 0 || rest.requests.length > 0) chunker.opened().finish(rest);
  return shaper.report('mcpscope-jsonl' satisfies ImportFormat, problems, { requests: rest.requests.length, links: rest.links.length });
}

async function importHar(chunks: AsyncIterable<Buffer>, shaper: ImportShaper, start: () => ImportTarget): Promise<ImportReport> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  const doc = parseHar(Buffer.concat(parts).toString('utf8').replace(/^\uFEFF/, ''));
  parts.length = 0;
  if (!doc.ok) throw unreadable(doc.problem);
  const read = readHar(doc.value, shaper.naming);
  if (!read.ok) throw unreadable(read.problem);
  const chunker = new Chunker(start);
  for (const [i, frame] of read.value.frames.entries()) await chunker.add(shaper.frame(frame, `frame ${i + 1}`));
  await chunker.flush();
  if (shaper.frames > 0) chunker.opened().finish({});
  return shaper.report('har', read.value.problems, { skipped: read.value.skipped });
}

function unreadable(problem: ImportProblem): InspectorError {
  return new InspectorError('import_unreadable', `${problem.where}: ${problem.message}`);
}
