// Free text over bodies is decided by SQLite's LIKE wherever LIKE means what the matcher means;
// each frame's text is looked at once when it is stored (`like_decides`, capture/text-sql.ts) so
// a search never reads a body twice. Files written before that column, read in place or upgraded,
// search as they did.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { parseFilter, type FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CaptureReader } from '../src/capture/capture-reader.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { ExchangeWindows } from '../src/capture/capture-window.js';
import { CaptureQuery } from '../src/capture/capture-query.js';
import { likeDecidesText } from '../src/capture/text-sql.js';
import { MIGRATIONS } from '../src/capture/migrations.js';
import { tempDbFile } from './store-helpers.js';

const NOTES = ['plain ascii', 'İstanbul', 'Kelvin 273 \u212A', 'before\u0000after', 'café Σ'];

function frames(): FrameInput[] {
  return NOTES.flatMap((note, i) => [
    { ts: 1_000 + 2 * i, sessionKey: 's-1', direction: 'c2s' as const, transport: 'http-json' as const, kind: 'data' as const, raw: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'note', arguments: {} } }) },
    // Not JSON, so the text is stored as it came, NUL and all.
    { ts: 1_001 + 2 * i, sessionKey: 's-1', direction: 's2c' as const, transport: 'http-json' as const, kind: 'data' as const, raw: `answer ${i + 1}: ${note}` },
  ]);
}

function capture(file: string): void {
  const store = new CaptureStore(file);
  const pipeline = new CapturePipeline(store);
  for (const f of frames()) pipeline.record(f);
  // Closed, so the engine worker's own connection is gone before the test changes the file.
  pipeline.close();
  store.close();
}

/** Ids of the exchanges free text `needle` keeps: by the window's scan and by the paged query. */
function found(reader: CaptureReader, needle: string): { scan: string[]; page: string[] } {
  const text = `"${needle}"`;
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(text);
  const scan = new ExchangeWindows(reader, { sliceMs: Infinity }).window({ filter: parsed.filter, text }, { offset: 0 }, 100);
  const page = new CaptureQuery(reader, { scanTimeMs: Infinity }).exchangesJson(parsed.filter, 100);
  const ids = (summaries: string[]) => summaries.map((s) => (JSON.parse(s) as { id: string }).id).sort();
  return { scan: ids(scan.summaries), page: ids(page.summaries) };
}

/**
 * Each search word and the exchange whose answer holds it as the matcher reads it: an answer that
 * is not JSON is an exchange of its own, whose id is its seq (note k's answer is frame 2k + 2).
 */
const SEARCHES: [needle: string, id: string][] = [
  ['ascii', '2'],
  // "İstanbul" lower-cases to "i̇stanbul", an "i" then a combining dot: LIKE sees no "i" there.
  [': i', '4'],
  ['n 273 k', '6'],
  // LIKE reads a text up to its first NUL.
  ['after', '8'],
  ['café', '10'],
];

function expectSearches(reader: CaptureReader): void {
  for (const [needle, id] of SEARCHES) expect(found(reader, needle), needle).toEqual({ scan: [id], page: [id] });
}

describe('like_decides', () => {
  it('only U+0130 and U+212A lower-case to text holding ASCII, of every character outside ASCII', () => {
    const found: number[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (/[\0-\x7f]/.test(String.fromCodePoint(c).toLowerCase())) found.push(c);
    }
    expect(found).toEqual([0x130, 0x212a]);
    expect(NOTES.map(likeDecidesText)).toEqual([true, false, false, false, true]);
  });

  it('is stored with each frame, and free text finds what the matcher finds either way', () => {
    const file = tempDbFile();
    capture(file);
    const reader = CaptureReader.openFile(file);
    try {
      expect(reader.frameColumns.likeDecides).toBe(true);
      const answers = reader.db.prepare("SELECT like_decides AS d FROM frames WHERE raw LIKE 'answer%' ORDER BY seq").all() as { d: number }[];
      expect(answers.map((r) => r.d)).toEqual([1, 0, 0, 0, 1]);
      expectSearches(reader);
    } finally {
      reader.close();
    }
  });

  it('searches a file written before the column in place, and once upgraded, as it did', () => {
    const file = tempDbFile();
    capture(file);
    const older = new Database(file);
    // The schema before the migration that adds the column.
    older.exec('ALTER TABLE frames DROP COLUMN like_decides');
    older.pragma(`user_version = ${MIGRATIONS.findIndex((m) => m.includes('like_decides'))}`);
    older.close();
    const reader = CaptureReader.openFile(file);
    try {
      expect(reader.frameColumns.likeDecides).toBe(false);
      expectSearches(reader);
    } finally {
      reader.close();
    }
    const upgraded = new CaptureStore(file);
    try {
      expect(upgraded.frameColumns.likeDecides).toBe(true);
      expect(upgraded.db.prepare('SELECT COUNT(*) AS n FROM frames WHERE like_decides IS NULL').get()).toEqual({ n: 10 });
      expectSearches(upgraded);
    } finally {
      upgraded.close();
    }
  });
});
