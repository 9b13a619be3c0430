/**
 * How a load run reads: the live progress line, the final table (one row per method and per
 * tool, then all), where latency grew, the first answers that differ from the captured ones, and
 * the same as JSON for `--report`.
 */
import type { LoadProgress, LoadResult } from './load-run.js';
import type { RowSummary } from './load-stats.js';

/** A row whose last-quarter p50 is this many times its first quarter's (and 1 ms more) grew. */
const GROWTH_FACTOR = 2;

export function formatProgress(p: LoadProgress): string {
  return `  ${(p.elapsedMs / 1000).toFixed(1)} s  ${p.requests} calls  ${p.recentPerSecond.toFixed(0)}/s  ${p.errors} errors  ${p.sessions} virtual clients`;
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

export function formatLoadTable(result: LoadResult): string {
  const header = ['call', 'count', 'calls/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'ok', 'protocol err', 'business err', 'transport err'];
  const line = (r: RowSummary) => [r.key, String(r.count), r.perSecond.toFixed(1), ms(r.p50), ms(r.p95), ms(r.p99), ms(r.max), String(r.outcomes.ok), String(r.outcomes.protocol_error), String(r.outcomes.business_error), String(r.outcomes.transport_error)];
  const body = [...result.rows.map(line), line(result.total)];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const render = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const out = [render(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.slice(0, -1).map(render), widths.map((w) => '─'.repeat(w)).join('  '), render(body[body.length - 1]!)];
  const grew = result.rows.filter(grewUnderLoad);
  if (grew.length > 0) {
    out.push('', 'Latency grew under load (p50, first quarter of the run → last quarter):');
    for (const r of grew) out.push(`  ${r.key}: ${ms(r.growth!.firstP50)} ms → ${ms(r.growth!.lastP50)} ms (×${(r.growth!.lastP50 / r.growth!.firstP50).toFixed(1)})`);
  }
  const differing = result.rows.filter((r) => r.differences.length > 0);
  if (differing.length > 0) {
    out.push('', 'First answers that differ from the captured ones:');
    for (const r of differing) {
      for (const d of r.differences) {
        const what = d.difference?.path !== undefined ? `${d.difference.kind} at ${d.difference.path}: ${d.difference.before ?? ''} → ${d.difference.after ?? ''}` : `${d.difference?.before ?? '?'} → ${d.after}${d.failure !== undefined ? ` (${d.failure})` : ''}`;
        out.push(`  ${r.key} (captured exchange ${d.exchangeId}): ${what}`);
      }
    }
  }
  const rate = result.total.count > 0 ? ((result.total.errors * 100) / result.total.count).toFixed(2) : '0.00';
  const ended = { done: 'every captured session played', requests: 'the --requests budget was spent', duration: 'the --duration ran out', interrupted: 'INTERRUPTED: the table holds what was measured until then', 'could-not-run': 'could not run' }[result.ended];
  out.push('', `${result.total.count} calls in ${(result.elapsedMs / 1000).toFixed(1)} s (${result.total.perSecond.toFixed(1)}/s) from ${result.sessions} virtual clients; ${result.total.errors} errors (${rate} %); ${ended}`);
  return out.join('\n');
}

export function grewUnderLoad(r: RowSummary): boolean {
  return r.growth !== undefined && r.growth.lastP50 >= r.growth.firstP50 * GROWTH_FACTOR && r.growth.lastP50 - r.growth.firstP50 >= 1;
}

export interface LoadReportMeta {
  file: string;
  target: string;
  concurrency: number;
  pace: string;
  maxErrors: number;
  startedAt: string;
}

export function loadReport(result: LoadResult, meta: LoadReportMeta): string {
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const row = (r: RowSummary) => ({
    call: r.key,
    count: r.count,
    perSecond: round(r.perSecond),
    latencyMs: { p50: round(r.p50), p95: round(r.p95), p99: round(r.p99), max: round(r.max) },
    outcomes: r.outcomes,
    errors: r.errors,
    ...(r.growth ? { latencyGrowth: { firstQuarterP50: round(r.growth.firstP50), lastQuarterP50: round(r.growth.lastP50), grew: grewUnderLoad(r) } } : {}),
    differences: r.differences,
  });
  return `${JSON.stringify(
    {
      mcpscope: 'load',
      ...meta,
      ended: result.ended,
      elapsedMs: round(result.elapsedMs),
      virtualClients: result.sessions,
      errorRatePercent: result.total.count > 0 ? round((result.total.errors * 100) / result.total.count) : 0,
      total: row(result.total),
      rows: result.rows.map(row),
    },
    null,
    2,
  )}\n`;
}
