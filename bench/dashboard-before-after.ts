/**
 * Issue 42's first table, before and after, from one run. For each size in `BA_SIZES` (exchanges,
 * comma-separated; default 100000,300000,1000000) the capture of support/capture-traffic.ts is
 * opened with `mcpscope open FILE` by the built checkout `BENCH_BEFORE` and by this one, and read
 * in Chromium by dashboard-1m.ts's readings: every row of the table for both builds, side by side.
 *
 * Each build opens a file its own capture code wrote (support/cached-capture.ts, both cached): a
 * build from before the in-place `open` imports its own layout and refuses a newer one. A
 * dashboard that searches the capture a part at a time offers "Search older"; the readings click
 * it as soon as it shows (support/dashboard-probes.ts `typeFilter`), so a search row is what a
 * user waits for, and the clicks it took are in its note.
 *
 * Without `BENCH_BEFORE` the rows are skipped, except in `--smoke`, which opens 2,000 exchanges
 * with this checkout on both sides so the readings cannot rot.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launch, readOpen, type Chrome, type OpenReadings } from './dashboard-1m.js';
import { BEFORE } from './paths.js';
import { fmt, percentile, printTable } from './stats.js';
import { bodySearches } from './support/body-searches.js';
import { cachedCapture } from './support/cached-capture.js';
import { checkoutBin } from './support/cli-process.js';
import { skipped, type BenchOptions, type BenchRow } from './report.js';

const BENCH = 'dashboard before/after';
const THIS_CHECKOUT = fileURLToPath(new URL('../', import.meta.url));

/** One build's readings of one capture, and the capture file's size. */
interface Side {
  readings: OpenReadings;
  fileBytes: number;
}

/** A row of the table: what it reads from one side, and what its note says. */
interface Measure {
  metric: string;
  unit: string;
  value: (side: Side, exchanges: number) => number;
  note?: (side: Side, exchanges: number) => string;
}

const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

/** A body search of support/body-searches.ts, by its name: ms to its answer, and the clicks it took. */
function searchMeasure(metric: string, name: string): Measure {
  const of = (side: Side, exchanges: number) => side.readings.searches[bodySearches(exchanges).findIndex((s) => s.name === name)]!;
  return {
    metric,
    unit: 'ms',
    value: (side, n) => of(side, n).ms,
    note: (side, n) => {
      const { clicks } = of(side, n);
      return clicks > 0 ? `${clicks} "Search older" click${clicks === 1 ? '' : 's'}` : '';
    },
  };
}

/** The issue's rows, in its order (its "every exchange / first row" and "heap / RSS" as two rows each). */
const MEASURES: Measure[] = [
  { metric: 'first row painted (from navigation)', unit: 'ms', value: (s) => s.readings.firstRowMs },
  { metric: 'every exchange in the tab (status line counts them all)', unit: 'ms', value: (s) => s.readings.everyRowMs },
  { metric: 'every door record read (a page that reads them all)', unit: 'ms', value: (s) => s.readings.doorReadMs },
  { metric: 'JS heap after GC', unit: 'MB', value: (s) => s.readings.heapMb },
  { metric: 'renderer RSS', unit: 'MB', value: (s) => s.readings.rendererMb },
  { metric: '"status:err" typed → rows painted (median of 3)', unit: 'ms', value: (s) => median(s.readings.statusErr) },
  searchMeasure('body search, first results painted', 'first results'),
  searchMeasure('a value found only in the middle → its rows painted', 'a value only in the middle'),
  searchMeasure('a word no body holds → whole capture searched', 'a word no body holds'),
  { metric: 'scroll from the middle, 900 px/frame, frame p95', unit: 'ms', value: (s) => percentile(s.readings.scroll, 95) },
  { metric: 'row click → detail (median of 3)', unit: 'ms', value: (s) => median(s.readings.clicks) },
  { metric: 'clearing a filter took the page down: reloaded', unit: 'times', value: (s) => s.readings.reloads },
  { metric: '`mcpscope open FILE` ready', unit: 'ms', value: (s) => s.readings.cliReadyMs },
  { metric: '`mcpscope open FILE` RSS when ready', unit: 'MB', value: (s) => s.readings.cliRssMb, note: (s) => `peak ${fmt(s.readings.cliPeakMb, 0)} MB by the end` },
  { metric: 'capture file', unit: 'MB', value: (s) => s.fileBytes / 1e6, note: (s, n) => `${fmt(s.fileBytes / n, 0)} B per exchange` },
];

const phase = (what: string) => console.log(`${new Date().toISOString().slice(11, 19)} load ${loadavg().map((l) => l.toFixed(1)).join(' ')}  ${what}`);
const commitOf = (checkout: string) => execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();

/** `before`: the checkout before (its own capture code writes its file); else this checkout, on the file every bench shares. */
async function readSide(chrome: Chrome, exchanges: number, smoke: boolean, label: string, before?: string): Promise<Side> {
  const capture = await cachedCapture(exchanges, before);
  if (capture.builtSeconds > 0) phase(`${label}: built the ${exchanges.toLocaleString('en-US')}-exchange capture in ${fmt(capture.builtSeconds, 0)} s`);
  phase(`${label}: ${exchanges.toLocaleString('en-US')} exchanges, mcpscope open`);
  return { readings: await readOpen(chrome, capture.file, exchanges, smoke, before ? checkoutBin(before) : undefined), fileBytes: statSync(capture.file).size };
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const before = BEFORE ?? (options.smoke ? THIS_CHECKOUT : undefined);
  if (!before) return [skipped(BENCH, 'issue 42 table, before and after', 'BENCH_BEFORE=<built checkout> not set')];
  const sizes = options.smoke ? [2000] : (process.env.BA_SIZES ?? '100000,300000,1000000').split(',').map(Number);
  const commits = { before: commitOf(before), after: commitOf(THIS_CHECKOUT) };
  const chrome = await launch();
  const results: Results = [];
  try {
    for (const exchanges of sizes) {
      const b = await readSide(chrome, exchanges, options.smoke, `before ${commits.before}`, before);
      const a = await readSide(chrome, exchanges, options.smoke, `after ${commits.after}`);
      results.push({ exchanges, before: b, after: a });
      // The table so far after each size: a run stopped during the next one still leaves its columns.
      printResults(results, commits);
    }
    phase('done');
  } finally {
    await chrome.browser.close();
    await chrome.server.close();
  }
  return rowsOf(results, commits);
}

type Results = { exchanges: number; before: Side; after: Side }[];

function printResults(results: Results, commits: { before: string; after: string }): void {
  const cell = (m: Measure, side: Side, exchanges: number) => {
    const note = m.note?.(side, exchanges);
    const value = m.value(side, exchanges);
    const shown = Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: m.unit === 'ms' ? 0 : 1 }) : '—';
    return `${shown}${note ? ` (${note})` : ''}`;
  };
  const header = ['measure', ...results.flatMap((r) => [`${r.exchanges.toLocaleString('en-US')} before`, 'after'])];
  const rows = MEASURES.map((m) => [`${m.metric} (${m.unit})`, ...results.flatMap((r) => [cell(m, r.before, r.exchanges), cell(m, r.after, r.exchanges)])]);
  printTable(`Issue 42's table, before (${commits.before}) and after (${commits.after}), same run (mcpscope open, Chromium)`, header, rows);
  // The same table in Markdown, as bench/README.md quotes it.
  console.log(['', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n'));
}

function rowsOf(results: Results, commits: { before: string; after: string }): BenchRow[] {
  return results.flatMap(({ exchanges, before, after }) =>
    MEASURES.map((m): BenchRow => {
      const notes = [['before', before] as const, ['after', after] as const].flatMap(([name, side]) => {
        const note = m.note?.(side, exchanges);
        return note ? [`${name}: ${note}`] : [];
      });
      return {
        bench: BENCH,
        metric: `${m.metric}, ${exchanges.toLocaleString('en-US')} exchanges`,
        value: m.value(after, exchanges),
        unit: m.unit,
        baseline: { name: `before (${commits.before})`, value: m.value(before, exchanges) },
        ratioAs: 'x',
        ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
      };
    }),
  );
}
