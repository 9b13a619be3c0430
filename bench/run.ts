/**
 * `pnpm bench`: runs every registered benchmark, then prints ONE summary table of all their rows
 * (value, spread, baseline from the same run, ratio, budget, met / NOT met) and writes the same
 * numbers as JSON under bench/results/. `pnpm bench --smoke` runs tiny sizes in seconds (CI runs
 * it so the bench never rots); `--only=name,name` runs a subset.
 *
 * Registering a benchmark is one line in BENCHES: the module exports
 * `bench(options: BenchOptions): Promise<BenchRow[]>` (see report.ts). Keep the list sorted by
 * name so concurrent additions merge cleanly.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { useTempRoot } from '../scripts/temp-root.js';
import { failed, formatMarkdown, formatSummary, isBenchRows, type BenchOptions, type BenchRow } from './report.js';

type BenchFn = (options: BenchOptions) => Promise<BenchRow[] | unknown>;

const BENCHES: [name: string, load: () => Promise<BenchFn>][] = [
  ['body-search-fts', async () => (await import('./body-search-fts.js')).bench],
  ['capture-cpu', async () => (await import('./capture-cpu.js')).bench],
  ['capture-size', async () => (await import('./capture-size.js')).bench],
  ['dashboard', async () => (await import('./dashboard.js')).benchDashboard],
  ['dashboard-lists', async () => (await import('./dashboard-lists.js')).bench],
  ['dashboard-1m', async () => (await import('./dashboard-1m.js')).bench],
  ['dashboard-before-after', async () => (await import('./dashboard-before-after.js')).bench],
  ['door', async () => (await import('./door.js')).bench],
  ['hub-catchup', async () => (await import('./hub-catchup.js')).bench],
  ['hub-fanout', async () => (await import('./hub-fanout.js')).bench],
  ['intercept', async () => (await import('./intercept.js')).bench],
  ['load', async () => (await import('./load.js')).bench],
  ['mock-verify', async () => (await import('./mock-verify.js')).bench],
  ['otlp-backend', async () => (await import('./otlp-backend.js')).bench],
  ['protocol', async () => (await import('./protocol.js')).benchProtocol],
  ['sqlite-drivers', async () => (await import('./sqlite-drivers.js')).bench],
  ['store-ingest', async () => (await import('./store-ingest.js')).bench],
  ['store-query', async () => (await import('./store-query.js')).bench],
  ['store-rss', async () => (await import('./store-rss.js')).bench],
  ['store-write-cost', async () => (await import('./store-write-cost.js')).bench],
  ['tap', async () => (await import('./tap.js')).bench],
  ['tap-large', async () => (await import('./tap-large.js')).bench],
  ['tap-sdk', async () => (await import('./tap-sdk.js')).bench],
  ['tap-sse', async () => (await import('./tap-sse.js')).bench],
  ['widget-flood', async () => (await import('./widget-flood.js')).bench],
];

// Every temporary file of the run (captures, copies, exports) under one directory, removed on exit.
process.once('exit', useTempRoot('bench'));

// Let exit handlers (which stop helper processes such as mitmdump) run on Ctrl-C too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const args = process.argv.slice(2);
const options: BenchOptions = { smoke: args.includes('--smoke') };
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');

const rows: BenchRow[] = [];
const results: Record<string, unknown> = { startedAt: new Date().toISOString(), smoke: options.smoke, node: process.version };
for (const [name, load] of BENCHES) {
  if (only && !only.includes(name)) continue;
  console.log(`\n━━ ${name}${options.smoke ? ' (smoke)' : ''}`);
  const started = performance.now();
  try {
    const out = await (await load())(options);
    results[name] = out;
    // A module that still prints its own tables and returns other data keeps its JSON; the
    // summary says where its numbers are rather than pretending it has none.
    if (isBenchRows(out)) rows.push(...out);
    else rows.push({ bench: name, metric: 'see its own table above', value: NaN, unit: '', note: 'not yet reporting BenchRow[]' });
  } catch (error) {
    console.error(error);
    results[name] = { error: String(error) };
    rows.push(failed(name, error));
  }
  console.log(`   ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

console.log(`\n━━ summary: every benchmark, one table${options.smoke ? ' (SMOKE sizes: numbers are not meaningful)' : ''}\n`);
console.log(formatSummary(rows));
results.rows = rows;
const dir = new URL('./results/', import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = `${dir}bench-${options.smoke ? 'smoke-' : ''}${stamp}.json`;
writeFileSync(file, JSON.stringify(results, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2));
// The Markdown table of the latest full run (every benchmark, real sizes) is what bench/README.md quotes.
if (!options.smoke && !only) writeFileSync(`${dir}latest.md`, formatMarkdown(rows) + '\n');
console.log(`\nwrote ${file}`);
// Benchmarks may leave keep-alive sockets in undici's pool; do not wait for them to time out.
process.exit(rows.some((r) => r.note?.startsWith('failed')) ? 1 : 0);
