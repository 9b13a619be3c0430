/**
 * Fan-out: the same capture ingested with no dashboard, with 5 live dashboards (real WebSocket
 * clients), and with 4 live dashboards plus one that has stopped reading. The tap's side is the
 * ingest rate (frames/s through pipeline + store + hub), measured against no dashboard in the
 * same run; the dashboards' side is how long after the last frame every live one has all frames,
 * each exactly once. A stalled dashboard must cost the others and the tap nothing: it is told to
 * resync instead.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ServerEvent } from '@mcpscope/protocol';
import { startMcpscope, type Mcpscope } from '@mcpscope/proxy/server';
import { printTable } from './stats.js';
import { frameInput, medianSpread, tempDb, type StoreBenchOptions, type StoreBenchRow } from './store-common.js';

// `ws` is apps/proxy's dependency; resolving it from there keeps bench's lockfile entry unchanged.
interface WsSocket {
  on(event: 'message', listener: (data: unknown) => void): void;
  once(event: 'open' | 'error', listener: (arg?: unknown) => void): void;
  terminate(): void;
}
const WebSocket = createRequire(new URL('../apps/proxy/package.json', import.meta.url))('ws') as new (url: string, protocols: string[]) => WsSocket;

const CHILD_ENV = 'MCPSCOPE_BENCH_FANOUT_CHILD';

interface Dashboard {
  frames: number;
  lastSeq: number;
  duplicates: number;
  resynced: boolean;
  socket: WsSocket;
}

/**
 * The dashboards run in a child process, as browsers would: their JSON parsing must not be billed
 * to the tap's event loop. Protocol on stdio: the parent sends `{url, token, after, live,
 * stalled}`; the child answers `ready`; later the parent sends `{head}` and the child answers with
 * what every dashboard got once all live ones have `head` (or after a bounded wait).
 */
async function child(): Promise<void> {
  const lines = createInterface({ input: process.stdin });
  const next = () => new Promise<string>((resolve) => lines.once('line', resolve));
  const setup = JSON.parse(await next()) as { url: string; token: string; after: number; live: number; stalled: number };
  const connect = async (stalled: boolean): Promise<Dashboard> => {
    const socket = new WebSocket(`${setup.url}/ws?after=${setup.after}`, ['mcpscope', `mcpscope.token.${setup.token}`]);
    const d: Dashboard = { frames: 0, lastSeq: setup.after, duplicates: 0, resynced: false, socket };
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as ServerEvent;
      if (event.type === 'resync') d.resynced = true;
      if (event.type !== 'frames/add') return;
      for (const f of event.frames) {
        if (f.seq <= d.lastSeq) d.duplicates++;
        d.lastSeq = f.seq;
        d.frames++;
      }
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    if (stalled) (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    return d;
  };
  const live = await Promise.all(Array.from({ length: setup.live }, () => connect(false)));
  const stuck = await Promise.all(Array.from({ length: setup.stalled }, () => connect(true)));
  process.stdout.write('ready\n');
  const { head } = JSON.parse(await next()) as { head: number };
  const asked = performance.now();
  for (let i = 0; i < 6000 && live.some((d) => d.lastSeq < head); i++) await new Promise((r) => setTimeout(r, 5));
  const lagMs = performance.now() - asked;
  // A stalled dashboard that reads again gets either everything that was buffered or a resync.
  for (const d of stuck) (d.socket as unknown as { _socket: { resume(): void } })._socket.resume();
  for (let i = 0; i < 6000 && stuck.some((d) => d.lastSeq < head && !d.resynced); i++) await new Promise((r) => setTimeout(r, 5));
  const report = { lagMs, live: live.map(({ socket: _s, ...d }) => d), stalled: stuck.map(({ socket: _s, ...d }) => d) };
  for (const d of [...live, ...stuck]) d.socket.terminate();
  process.stdout.write(JSON.stringify(report) + '\n');
  process.exit(0);
}

async function run(frames: number, live: number, stalled: number): Promise<{ rate: number; lagMs: number; ok: boolean }> {
  const app: Mcpscope = await startMcpscope({ db: tempDb('fanout'), port: 0, uiPort: 0, target: 'http://127.0.0.1:9/mcp', hub: { maxBufferedBytes: 4 * 2 ** 20 } });
  const p = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], { env: { ...process.env, [CHILD_ENV]: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const out = createInterface({ input: p.stdout });
  const reply = () => new Promise<string>((resolve) => out.once('line', resolve));
  p.stdin.write(JSON.stringify({ url: app.dashboardUrl.replace('http', 'ws'), token: app.token, after: app.store.head(), live, stalled }) + '\n');
  await reply(); // ready
  const started = performance.now();
  for (let n = 0; n < frames; n++) {
    app.pipeline.record(frameInput(n, 150));
    // One tick per 256 frames, as a busy tap; sockets and the hub's timer run in between.
    if (n % 256 === 255) await new Promise((r) => setImmediate(r));
  }
  // Returns once everything is stored and told to the hub (it waits for the tick writer's thread).
  app.pipeline.flush();
  const rate = frames / ((performance.now() - started) / 1000);
  const answer = reply();
  p.stdin.write(JSON.stringify({ head: app.store.head() }) + '\n');
  const report = JSON.parse(await answer) as { lagMs: number; live: Omit<Dashboard, 'socket'>[]; stalled: Omit<Dashboard, 'socket'>[] };
  await app.close();
  const ok = report.live.every((d) => d.frames === frames && d.duplicates === 0) && report.stalled.every((d) => d.resynced || d.frames === frames);
  return { rate, lagMs: report.lagMs, ok };
}

export async function bench(options: StoreBenchOptions): Promise<StoreBenchRow[]> {
  const frames = options.smoke ? 5_000 : 100_000;
  const rounds = options.smoke ? 1 : 3;
  const variants = [
    { name: 'no dashboard', live: 0, stalled: 0 },
    { name: '5 live dashboards', live: 5, stalled: 0 },
    { name: '4 live + 1 stalled dashboard', live: 4, stalled: 1 },
  ];
  const results = new Map<string, { rates: number[]; lags: number[]; ok: boolean }>(variants.map((v) => [v.name, { rates: [], lags: [], ok: true }]));
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const out = await run(frames, v.live, v.stalled);
      const acc = results.get(v.name)!;
      acc.rates.push(out.rate);
      acc.lags.push(out.lagMs);
      acc.ok &&= out.ok;
    }
  }
  const base = medianSpread(results.get('no dashboard')!.rates);
  const table = variants.map((v) => {
    const acc = results.get(v.name)!;
    const rate = medianSpread(acc.rates);
    return [v.name, `${rate.median.toFixed(0)} (${rate.min.toFixed(0)}–${rate.max.toFixed(0)})`, `${((rate.median / base.median) * 100).toFixed(1)} %`, v.live ? medianSpread(acc.lags).median.toFixed(0) : '', acc.ok ? 'yes' : 'NO'];
  });
  printTable(`Fan-out, ${frames.toLocaleString('en-US')} frames × ${rounds} rounds`, ['variant', 'ingest frames/s', 'vs no dashboard', 'last frame at all dashboards after (ms)', 'all frames exactly once'], table);
  const rows: StoreBenchRow[] = [];
  for (const v of variants.slice(1)) {
    const acc = results.get(v.name)!;
    const rate = medianSpread(acc.rates);
    rows.push({
      bench: 'hub fan-out',
      metric: `ingest with ${v.name} (${frames.toLocaleString('en-US')} frames)`,
      value: rate.median,
      unit: 'frames/s',
      spread: rate,
      baseline: { name: 'no dashboard', value: base.median },
      ratioAs: '%',
      budget: 'dashboards never slow the tap: ≥ 85 % of no-dashboard ingest',
      met: rate.median >= 0.85 * base.median && acc.ok,
      ...(acc.ok ? {} : { note: 'a live dashboard missed or duplicated frames' }),
    });
    const lag = medianSpread(acc.lags);
    rows.push({ bench: 'hub fan-out', metric: `every live dashboard has the last frame, ${v.name}`, value: lag.median, unit: 'ms after the last frame', spread: lag });
  }
  return rows;
}

if (process.env[CHILD_ENV]) await child();
