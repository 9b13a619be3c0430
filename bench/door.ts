/**
 * What recording every HTTP request at the door costs the MCP path. The tap's own CPU time per
 * `tools/call` (utime + stime of the tap process, from /proc) with door records on ("mcpscope")
 * and off ("mcpscope, door off", frames still captured), and with capture off altogether, at 1
 * and 10 keep-alive clients against the fast upstream; rounds interleave the paths. CPU time of
 * the tap process is what the door adds to, and unlike wall-clock latency it barely moves when
 * other processes load the machine — the tap rows (tap.ts) carry the latencies, with the same
 * "door off" path beside them.
 *
 * Budget (issue 15): the door keeps the tap rows within noise; here, CPU per call with the door
 * on stays within 15 % of door off.
 */
import { startPaths, type PathKind } from './paths.js';
import { skipped, type BenchOptions, type BenchRow } from './report.js';
import { Samples } from './samples.js';
import { spread } from './stats.js';
import { startHelper } from './support/processes.js';
import { load } from './support/load.js';
import { cpuMs } from './support/proc-cpu.js';

const BENCH = 'door';
const PATHS: PathKind[] = ['mcpscope', 'door off', 'capture off'];

export async function bench(options: BenchOptions): Promise<BenchRow[]> {
  const rounds = options.smoke ? 1 : 6;
  // DOOR_CLIENTS=1,10,50 adds concurrencies (issue 18 reads capture's CPU per call at 50 clients here).
  const concurrencies = options.smoke ? [1] : (process.env.DOOR_CLIENTS?.split(',').map(Number) ?? [1, 10]);
  const calls = options.smoke ? 300 : 3000;
  const upstream = await startHelper('./fast-upstream.ts');
  const paths = await startPaths(PATHS, upstream);
  const samples = new Samples();
  try {
    if (paths.live.some(([, p]) => p.pid === undefined || cpuMs(p.pid) === undefined)) return [skipped(BENCH, 'tap CPU per call', 'no /proc/<pid>/stat on this system')];
    for (let round = 0; round < rounds; round++) {
      // Each round starts with another path: the first path of a round ran measurably slower
      // (1.35× vs 1.14× door off in two runs on a quiet machine with the order swapped).
      const live = paths.live.slice(round % paths.live.length).concat(paths.live.slice(0, round % paths.live.length));
      for (const [name, path] of live) {
        const url = `${path.origin}/mcp`;
        await load(url, 1, 100);
        for (const clients of concurrencies) {
          const before = cpuMs(path.pid!)!;
          await load(url, clients, Math.floor(calls / clients));
          const after = cpuMs(path.pid!)!;
          samples.add(`cpu ${clients}`, name, ((after - before) * 1000) / calls);
        }
      }
    }
  } finally {
    await paths.close();
    await upstream.stop();
  }
  const rows: BenchRow[] = [];
  for (const clients of concurrencies) {
    const key = `cpu ${clients}`;
    for (const [name] of paths.live) {
      // "before: …" paths (BENCH_BEFORE) read against their own door off.
      const prefix = name.startsWith('before: ') ? 'before: ' : '';
      const base = spread(samples.get(key, `${prefix}mcpscope, door off`)).median;
      const s = spread(samples.get(key, name));
      const row: BenchRow = { bench: BENCH, metric: `tap CPU per tools/call, ${clients} client${clients === 1 ? '' : 's'}, ${name}`, value: s.median, spread: s, unit: 'µs' };
      if (name !== `${prefix}mcpscope, door off`) row.baseline = { name: `${prefix}door off`, value: base };
      if (name === `${prefix}mcpscope`) Object.assign(row, { budget: '≤ 1.15× door off', met: s.median <= base * 1.15 });
      rows.push(row);
    }
  }
  return rows;
}
