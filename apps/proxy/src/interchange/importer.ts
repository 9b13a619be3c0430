/**
 * Import of a whole file's text: frames for a cassette (verify, mock) or the capture pipeline out.
 * Sniffs the format (mcpscope JSONL or HAR) and shapes what it reads as every import does
 * (import-shape.ts). The dashboard and `mcpscope open` stream instead (import-stream.ts).
 */
import type { FrameInput, ImportProblem } from '@mcpscope/protocol';
import { looksLikeJsonl, readJsonl } from './jsonl.js';
import { readHar } from './har-reader.js';
import { ImportShaper } from './import-shape.js';
import type { ImportBatch } from '../capture/capture-import.js';
import type { ImportReport } from '@mcpscope/protocol';

export type ImportResult =
  | (Required<ImportBatch> & { ok: true; report: ImportReport })
  | { ok: false; code: 'import_unreadable'; problem: ImportProblem };

export function importCapture(text: string, fileName: string): ImportResult {
  const shaper = new ImportShaper(fileName);
  const body = text.replace(/^\uFEFF/, '');
  if (looksLikeJsonl(body)) {
    const read = readJsonl(body);
    if (!read.ok) return { ok: false, code: 'import_unreadable', problem: read.problem };
    const { frames, requests, links, marks, problems } = read.value;
    const originalSeqs = frames.map((f) => f.seq);
    const shaped = frames.map((f) => shaper.jsonlFrame(f));
    const records = requests.map((r) => shaper.request(r));
    return { ok: true, frames: shaped, originalSeqs, requests: records, links, marks, report: shaper.report('mcpscope-jsonl', problems, { requests: records.length, links: links.length }) };
  }
  const doc = parseHar(body);
  if (!doc.ok) return doc;
  const read = readHar(doc.value, shaper.naming);
  if (!read.ok) return { ok: false, code: 'import_unreadable', problem: read.problem };
  const frames: FrameInput[] = read.value.frames.map((f, i) => shaper.frame(f, `frame ${i + 1}`));
  return { ok: true, frames, originalSeqs: [], requests: [], links: [], marks: [], report: shaper.report('har', read.value.problems, { skipped: read.value.skipped }) };
}

/** A HAR file's JSON, or the problem that says it is neither format. */
export function parseHar(body: string): { ok: true; value: unknown } | { ok: false; code: 'import_unreadable'; problem: ImportProblem } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    return { ok: false, code: 'import_unreadable', problem: { where: 'file', message: `neither mcpscope JSONL (first line {"format":"mcpscope-jsonl",…}) nor a HAR file (JSON): ${(err as Error).message}` } };
  }
}
