/**
 * The shape every benchmark reports in, and the one summary table `pnpm bench` prints at the end.
 *
 * A benchmark module exports `bench(options): Promise<BenchRow[]>` and is registered with one line
 * in bench/run.ts. Each row is one measured number, always beside the baseline measured in the
 * same run (these machines are noisy: a ratio within one run means more than an absolute number),
 * with its spread over rounds and the DESIGN.md budget it answers to. Nothing is hidden: a row
 * that misses its budget says "NOT met", a row that could not run says "skipped" and why.
 */
import { fmt, spread } from './stats.js';

export interface BenchOptions {
  /** `pnpm bench --smoke`: tiny sizes, seconds in total, so CI proves the bench still runs. */
  smoke: boolean;
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export interface BenchRow {
  /** Which benchmark, e.g. "tap overhead". Rows are grouped by it in the table. */
  bench: string;
  /** What was measured, e.g. "p50 latency, 10 clients, mitmdump". */
  metric: string;
  /** The headline number (the median over rounds), in `unit`; NaN when skipped. */
  value: number;
  unit: string;
  /** min / median / max over repeated rounds. */
  spread?: Spread;
  /** The same metric on the baseline path, measured in the same run. */
  baseline?: { name: string; value: number };
  /** How to read the ratio: value / baseline ("x") or as a percentage of it ("%"). */
  ratioAs?: 'x' | '%';
  /** The budget from DESIGN.md this row answers to, as text, e.g. "≤ 1 ms added vs direct". */
  budget?: string;
  /** Whether the budget is met; absent when the row has no budget. */
  met?: boolean;
  /** Why the row was skipped, or a caveat a reader needs. */
  note?: string;
}

/** A row from repeated rounds: value is their median, spread their min/median/max. */
export function measured(fields: Omit<BenchRow, 'value' | 'spread'>, rounds: number[]): BenchRow {
  const s = spread(rounds);
  return { ...fields, value: s.median, spread: s };
}

/** A row that could not be measured, saying why (e.g. mitmdump is not installed). */
export function skipped(bench: string, metric: string, reason: string, budget?: string): BenchRow {
  return { bench, metric, value: NaN, unit: '', note: `skipped: ${reason}`, ...(budget ? { budget } : {}) };
}

export function ratioOf(row: BenchRow): number | undefined {
  if (!row.baseline || !Number.isFinite(row.value) || !(row.baseline.value > 0)) return undefined;
  return row.value / row.baseline.value;
}

const digitsFor = (n: number) => (Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2);
const num = (n: number) => fmt(n, digitsFor(n));

function valueCell(row: BenchRow): string {
  if (!Number.isFinite(row.value)) return '—';
  const head = `${num(row.value)} ${row.unit}`.trim();
  if (!row.spread || row.spread.min === row.spread.max) return head;
  return `${head} (${num(row.spread.min)}–${num(row.spread.max)})`;
}

function ratioCell(row: BenchRow): string {
  const r = ratioOf(row);
  if (r === undefined) return '';
  return row.ratioAs === '%' ? `${fmt(r * 100, 1)} % of ${row.baseline!.name}` : `${fmt(r, 2)}× ${row.baseline!.name}`;
}

function statusCell(row: BenchRow): string {
  if (row.note?.startsWith('skipped')) return row.note;
  const status = row.met === undefined ? '' : row.met ? 'met' : 'NOT met';
  return [status, row.note].filter(Boolean).join('; ');
}

/** The one table: every row of every benchmark, grouped, with its budget and verdict. */
export function formatSummary(rows: BenchRow[]): string {
  const header = ['benchmark', 'metric', 'value (min–max)', 'baseline (same run)', 'ratio', 'budget', 'verdict'];
  const cells = rows.map((r) => [
    r.bench,
    r.metric,
    valueCell(r),
    r.baseline ? `${r.baseline.name}: ${num(r.baseline.value)} ${r.unit}`.trim() : '',
    ratioCell(r),
    r.budget ?? '',
    statusCell(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join(' │ ').trimEnd();
  const out = [line(header), widths.map((w) => '─'.repeat(w)).join('─┼─')];
  let group: string | undefined;
  for (const c of cells) {
    // Print the benchmark name once per group so the eye finds the groups.
    out.push(line(c[0] === group ? ['', ...c.slice(1)] : c));
    group = c[0];
  }
  const withBudget = rows.filter((r) => r.met !== undefined);
  const missed = withBudget.filter((r) => !r.met).length;
  const skippedCount = rows.filter((r) => r.note?.startsWith('skipped')).length;
  out.push('', `${withBudget.length - missed} of ${withBudget.length} budgets met, ${missed} not met, ${skippedCount} rows skipped`);
  return out.join('\n');
}

/** The same table as Markdown, for bench/README.md. */
export function formatMarkdown(rows: BenchRow[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const out = ['| benchmark | metric | value (min–max) | baseline | ratio | budget | verdict |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const baseline = r.baseline ? `${r.baseline.name}: ${num(r.baseline.value)} ${r.unit}`.trim() : '';
    out.push(`| ${[r.bench, r.metric, valueCell(r), baseline, ratioCell(r), r.budget ?? '', statusCell(r)].map(esc).join(' | ')} |`);
  }
  return out.join('\n');
}

/** A row for a benchmark that threw: it still shows up, as a failure, not as silence. */
export function failed(bench: string, error: unknown): BenchRow {
  const message = error instanceof Error ? error.message : String(error);
  return { bench, metric: 'whole benchmark', value: NaN, unit: '', met: false, note: `failed: ${message.split('\n')[0]}` };
}

export function isBenchRows(value: unknown): value is BenchRow[] {
  return Array.isArray(value) && value.every((r) => typeof r === 'object' && r !== null && 'bench' in r && 'metric' in r && 'value' in r);
}
