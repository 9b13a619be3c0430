/**
 * What intercept rules cost traffic they do not match: `tools/call` latency (p50, p99) and the tap's
 * CPU per call with no rule ("mcpscope") and with a rule set that matches nothing ("mcpscope, rules
 * that match nothing": five enabled rules on tools no client calls, so every request is parsed and
 * filtered and then forwarded as it was), at 1 client, rounds interleaving the two, same run.
 *
 * Budget: a rule set that matches nothing costs no measurable latency: p50 within 1.1×
 * of no rules.
 */
import { skipped, type BenchOptions, type BenchRow } from './report.js';
import { Samples } from './samples.js';
import { percentile, spread } from './stats.js';
import { startHelper, type Helper } from './support/processes.js';
import { load } from './support/load.js';
import { cpuMs } from './support/proc-cpu.js';

const BENCH = 'intercept';
const RULES = ['tool:no-such-tool-1 => delay 5s', 'tool:no-such-tool-2 => error -32000 "x"', 'method:resources/read tool:nope => drop', 'tool:no-such-* => pause', 'method:prompts/get => http 503'];

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 6;
  const calls = options.smoke ? 300 : 3000;
  const upstream = await startHelper('./fast-upstream.ts');
  const paths: [string, Helper][] = [];
  const samples = new Samples();
  try {
    paths.push(['mcpscope', await startHelper('./tap-process.ts', { UPSTREAM: upstream.origin })]);
    paths.push(['mcpscope, rules that match nothing', await startHelper('./tap-process.ts', { UPSTREAM: upstream.origin, RULES: RULES.join('\n') })]);
    if (paths.some(([, p]) => p.pid === undefined || cpuMs(p.pid) === undefined)) return [skipped(BENCH, 'tap CPU per call', 'no /proc/<pid>/stat on this system')];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? paths : [...paths].reverse();
      for (const [name, path] of order) {
        const url = `${path.origin}/mcp`;
        await load(url, 1, 100);
        const before = cpuMs(path.pid!)!;
        const run = await load(url, 1, calls);
        samples.add('cpu', name, ((cpuMs(path.pid!)! - before) * 1000) / calls);
        samples.add('p50', name, percentile(run.latencies, 50) * 1000);
        samples.add('p99', name, percentile(run.latencies, 99) * 1000);
      }
    }
  } finally {
    await Promise.all(paths.map(([, p]) => p.stop()));
    await upstream.stop();
  }
  const rows: BenchRow[] = [];
  for (const [key, what] of [['p50', 'p50 latency'], ['p99', 'p99 latency'], ['cpu', 'tap CPU per tools/call']] as const) {
    const base = spread(samples.get(key, 'mcpscope')).median;
    for (const [name] of paths) {
      const s = spread(samples.get(key, name));
      const row: BenchRow = { bench: BENCH, metric: `${what}, 1 client, ${name}`, value: s.median, spread: s, unit: 'µs' };
      if (name !== 'mcpscope') {
        row.baseline = { name: 'no rules', value: base };
        if (key === 'p50') Object.assign(row, { budget: '≤ 1.1× no rules', met: s.median <= base * 1.1 });
      }
      rows.push(row);
    }
  }
  return rows;
}
