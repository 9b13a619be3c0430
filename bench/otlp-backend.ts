/**
 * What live OTLP export (`--otlp`) costs the tap, and that a tracing backend in trouble does not
 * hold it up: small tools/call load through mcpscope without export, and with export to a backend
 * that accepts every batch, one that answers 503, one that never answers, and one that is not
 * there. Each export row is compared with mcpscope without export from the same rounds (rounds
 * interleave the paths); "within noise" means inside the spread of the rounds. The counts of what
 * happened to the spans (exported / dropped / failed) of each path are printed as the rows' notes.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { BenchPath } from './paths.js';
import { skipped, type BenchOptions, type BenchRow } from './report.js';
import { runLoadRounds, type Samples } from './samples.js';
import { spread } from './stats.js';
import { startHelper, type Helper } from './support/processes.js';

const BENCH = 'otlp-backend';
const BASE = 'mcpscope, no export';

type Backend = 'accepts' | 'answers 503' | 'hangs' | 'is absent';
const BACKENDS: [Backend, string | undefined][] = [
  ['accepts', 'ok'],
  ['answers 503', '503'],
  ['hangs', 'hang'],
  ['is absent', undefined],
];

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 3;
  const concurrencies = options.smoke ? [1, 5] : [1, 50];
  const callsPerRun = options.smoke ? 200 : 2000;
  const statusDir = mkdtempSync(join(tmpdir(), 'mcpscope-otlp-bench-'));
  const helpers: Helper[] = [];
  const paths: [string, BenchPath, string | undefined][] = [];
  try {
    const upstream = await startHelper('./fast-upstream.ts');
    helpers.push(upstream);
    const UPSTREAM = upstream.origin;
    const base = await startHelper('./tap-process.ts', { UPSTREAM });
    helpers.push(base);
    paths.push([BASE, { origin: base.origin, pid: base.pid, close: () => base.stop() }, undefined]);
    for (const [backend, mode] of BACKENDS) {
      let url: string;
      if (mode) {
        const sink = await startHelper('./otlp-sink.ts', { MODE: mode });
        helpers.push(sink);
        url = `${sink.origin}/v1/traces`;
      } else url = `http://127.0.0.1:${await closedPort()}/v1/traces`;
      const statusFile = join(statusDir, `${mode ?? 'absent'}.json`);
      const tap = await startHelper('./tap-process.ts', { UPSTREAM, OTLP: url, OTLP_STATUS: statusFile });
      helpers.push(tap);
      paths.push([`mcpscope, backend ${backend}`, { origin: tap.origin, pid: tap.pid, close: () => tap.stop() }, statusFile]);
    }
    let samples: Samples;
    try {
      samples = await runLoadRounds(
        paths.map(([name, path]) => [name, path] as [string, BenchPath]),
        { rounds, concurrencies, callsPerRun, warmUp: options.smoke ? 20 : 100 },
      );
    } finally {
      // Taps first (they write their counts on SIGTERM), then the backends and the upstream.
      for (const h of helpers.reverse()) await h.stop();
    }
    return rowsOf(samples, paths, concurrencies, rounds);
  } catch (error) {
    for (const h of helpers) await h.stop().catch(() => undefined);
    return [skipped(BENCH, 'every row', String(error))];
  }
}

function rowsOf(samples: Samples, paths: [string, BenchPath, string | undefined][], concurrencies: readonly number[], rounds: number): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const clients of concurrencies) {
    const who = `${clients} client${clients === 1 ? '' : 's'}`;
    for (const metric of ['rate', 'p50'] as const) {
      const key = `${metric} ${clients}`;
      const base = spread(samples.get(key, BASE));
      for (const [name, , statusFile] of paths) {
        const s = spread(samples.get(key, name));
        const row: BenchRow = {
          bench: BENCH,
          metric: `tools/call ${metric}, ${who}, ${name}`,
          value: s.median,
          spread: s,
          ...(metric === 'rate' ? { unit: 'req/s', ratioAs: '%' as const } : { unit: 'ms' }),
        };
        if (name !== BASE) {
          row.baseline = { name: BASE, value: base.median };
          // Within noise: the export path's median lies inside the no-export path's spread over
          // rounds, or its own spread overlaps it.
          // One round (smoke) has no spread to be within: no verdict then.
          row.budget = 'within the no-export spread';
          if (rounds > 1) row.met = s.min <= base.max && s.max >= base.min;
          if (statusFile && metric === 'rate' && clients === concurrencies[concurrencies.length - 1]) row.note = countsOf(statusFile);
        }
        rows.push(row);
      }
    }
  }
  return rows;
}

function countsOf(file: string): string {
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as { exported: number; dropped: number; failed: number; waiting: number };
    return `spans: ${s.exported} exported, ${s.dropped} dropped, ${s.failed} failed, ${s.waiting} waiting`;
  } catch {
    return 'span counts not written';
  }
}
