/**
 * Whether a full-text index pays for body search: the body search mcpscope runs today (the
 * window API's scan: every summary matched in slices, bodies read per exchange, `complete: false`
 * while it counts) beside SQLite FTS5 over the frames' text, on the cached captures of 100,000
 * and 1,000,000 exchanges (support/cached-capture.ts). The index is an external-content FTS5
 * table over `frames.raw` (it stores no text of its own, like a contentless one), built on a copy
 * of the file (not merged by 'optimize': as an index kept up by inserts stands), once with the trigram tokenizer (substring matches, case-insensitive: what the
 * filter's free text means today) and once with unicode61 (whole words, smaller, a different
 * meaning: "limit 7" also matches `limit: 7`).
 *
 * Three searches, as the dashboard bench types them: a value in one request of 50 (first
 * results), a value only in the 40 exchanges at the capture's middle, a word no body holds (the
 * whole capture searched). Today: time until the API's window answers with a row (or, for the
 * word no body holds, until it says `complete`), polled every 50 ms over HTTP from `mcpscope
 * open`. FTS5: the first 100 matching frames in capture order, and the count of matching frames
 * (the list's length), in process. Also: what the index costs in bytes per exchange and to build.
 * Not in the product: this module only measures.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExchangeWindowPage } from '@mcpscope/protocol';
import { fmt, printTable } from './stats.js';
import { cachedCapture } from './support/cached-capture.js';
import { bodySearches, type BodySearch } from './support/body-searches.js';
import { startCli } from './support/cli-process.js';
import type { BenchOptions, BenchRow } from './report.js';

const TOKENIZERS = ['trigram', 'unicode61'] as const;

/** Today's search through the API of `mcpscope open`: ms until a row is found (or, when none can be, until the whole capture is searched). */
async function apiSearch(dashboardUrl: string, token: string, filter: string): Promise<{ ms: number; total: number }> {
  const url = `${dashboardUrl}/api/exchanges/window?filter=${encodeURIComponent(filter)}&offset=0&limit=100`;
  const started = performance.now();
  for (;;) {
    const page = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as ExchangeWindowPage;
    if (page.total > 0 || page.complete) return { ms: performance.now() - started, total: page.total };
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface FtsReading {
  tokenizer: (typeof TOKENIZERS)[number];
  buildSeconds: number;
  bytesPerExchange: number;
  /** Per search: ms for the first 100 matching frames, ms to count them, the count. */
  searches: { firstMs: number; countMs: number; count: number }[];
}

/** An FTS5 index per tokenizer over the frames of one copy of `file`, each built and queried in process. */
async function ftsReadings(file: string, exchanges: number, searches: BodySearch[]): Promise<FtsReading[]> {
  const { openSqlite } = await import('@mcpscope/proxy/capture');
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-bench-fts-'));
  const copy = join(dir, 'capture.db');
  copyFileSync(file, copy);
  const db = openSqlite(copy);
  try {
    return TOKENIZERS.map((tokenizer) => {
      const table = `fts_${tokenizer}`;
      const started = performance.now();
      db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5(raw, content='frames', content_rowid='seq', tokenize='${tokenizer}')`);
      db.exec(`INSERT INTO ${table}(${table}) VALUES('rebuild')`);
      const buildSeconds = (performance.now() - started) / 1000;
      const bytes = (db.prepare(`SELECT SUM(pgsize) AS n FROM dbstat WHERE name LIKE '${table}%'`).get() as { n: number }).n;
      const first = db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid LIMIT 100`);
      const count = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`);
      const readings = searches.map((s) => {
        // An FTS5 string: the needle as one phrase (trigram: a substring; unicode61: its words in a row).
        const match = `"${s.needle.replace(/"/g, '""')}"`;
        let t = performance.now();
        first.all(match);
        const firstMs = performance.now() - t;
        t = performance.now();
        const n = (count.get(match) as { n: number }).n;
        return { firstMs, countMs: performance.now() - t, count: n };
      });
      return { tokenizer, buildSeconds, bytesPerExchange: bytes / exchanges, searches: readings };
    });
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const sizes = options.smoke ? [2000] : (process.env.FTS_EXCHANGES ?? '100000,1000000').split(',').map(Number);
  const rows: BenchRow[] = [];
  for (const exchanges of sizes) {
    const capture = await cachedCapture(exchanges);
    const searches = bodySearches(exchanges);
    // Each search in its own process: a scan goes on counting after its answer, and would slow the
    // next. The smoke size is scanned in one slice, so there one process serves all three.
    const today: { ms: number; total: number }[] = [];
    for (const group of options.smoke ? [searches] : searches.map((s) => [s])) {
      const cli = await startCli(['open', capture.file, '--ui-port', '0']);
      try {
        for (const s of group) today.push(await apiSearch(cli.ready.dashboardUrl, cli.ready.token, s.filter));
      } finally {
        await cli.stop();
      }
    }
    const fts = await ftsReadings(capture.file, exchanges, searches);

    const n = `${exchanges.toLocaleString('en-US')} exchanges`;
    printTable(
      `Body search on ${n}: today's scan (API of mcpscope open, until a row or "complete") vs FTS5 (first 100 frames / count)`,
      ['search', 'today (ms)', 'today found', ...fts.flatMap((f) => [`${f.tokenizer} first 100 (ms)`, `${f.tokenizer} count (ms)`, `${f.tokenizer} frames`])],
      searches.map((s, i) => [s.name, fmt(today[i]!.ms, 0), today[i]!.total, ...fts.flatMap((f) => [fmt(f.searches[i]!.firstMs, 1), fmt(f.searches[i]!.countMs, 1), f.searches[i]!.count])]),
    );
    printTable(`What an FTS5 index over the frames costs, ${n}`, ['tokenizer', 'bytes per exchange', 'build (s)'], fts.map((f) => [f.tokenizer, fmt(f.bytesPerExchange, 0), fmt(f.buildSeconds, 1)]));
    for (const [i, s] of searches.entries()) {
      for (const f of fts) {
        const ftsMs = f.searches[i]!.firstMs + f.searches[i]!.countMs;
        rows.push({ bench: 'body search FTS5', metric: `${s.name}, ${n}: FTS5 ${f.tokenizer} (first 100 + count)`, value: ftsMs, unit: 'ms', baseline: { name: "today's scan", value: today[i]!.ms }, ratioAs: 'x' });
      }
    }
    for (const f of fts) rows.push({ bench: 'body search FTS5', metric: `index size, ${f.tokenizer}, ${n} (built in ${fmt(f.buildSeconds, 0)} s)`, value: f.bytesPerExchange, unit: 'B/exchange' });
  }
  return rows;
}
