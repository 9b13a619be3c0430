/**
 * Filtered pages from a big capture: 1,000,000 frames (500,000 tool calls over 20 sessions,
 * ~10 % protocol errors, ~5 % business errors), generated straight into the store's schema in one
 * transaction. Each query goes through the real API route (Hono, parameter parsing, filter
 * parsing, SQL pushdown + matcher, JSON) with `app.request`, no socket. Baseline from the same
 * run: the bare SQL read of the newest page (the floor of any page).
 * Also measured: opening that file (the deriver is warmed by replaying every stored frame when
 * there is no snapshot, else restored from its snapshot plus the frames after it).
 */
import { Hono } from 'hono';
import { CaptureDeriver, type ExchangeSummary, type Frame } from '@mcpscope/protocol';
import { CapturePipeline, CaptureQuery, CaptureStore, SNAPSHOT_EVERY } from '@mcpscope/proxy/capture';
import { apiErrorHandler, exchangeRoutes, frameRoutes } from '@mcpscope/proxy/api';
import { printTable } from './stats.js';
import { exchangeFor, frameInput, medianSpread, tempDb, type StoreBenchOptions, type StoreBenchRow } from './store-common.js';

const PAGE = 100;

/** Fills a store with `frames` frames and their exchanges, sessions and frame links. */
function generate(file: string, frames: number): number {
  const store = new CaptureStore(file);
  const started = performance.now();
  const deriver = new CaptureDeriver();
  store.db.transaction(() => {
    for (let n = 0; n < frames; n += 10_000) {
      const chunk: Frame[] = [];
      for (let k = n; k < Math.min(frames, n + 10_000); k++) chunk.push({ ...frameInput(k), seq: k + 1 });
      const exchanges: ExchangeSummary[] = [];
      for (let k = 0; k + 1 < chunk.length; k += 2) exchanges.push(exchangeFor(chunk[k]!, chunk[k + 1]!));
      // Sessions come from the real deriver, from each session's first frames only.
      const sessions = n === 0 ? chunk.slice(0, 40).flatMap((f) => deriver.ingest(f).sessions) : [];
      store.write({ frames: chunk, exchanges, sessions, diagnostics: [] });
    }
  })();
  const seconds = (performance.now() - started) / 1000;
  store.close();
  return seconds;
}

function timeIt(rounds: number, fn: () => unknown): number[] {
  fn(); // warm
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

export async function bench(options: StoreBenchOptions): Promise<StoreBenchRow[]> {
  const frames = options.smoke ? 20_000 : 1_000_000;
  const rounds = options.smoke ? 3 : 15;
  const file = tempDb('query');
  const genSeconds = generate(file, frames);
  console.log(`generated ${frames} frames in ${genSeconds.toFixed(1)} s (${(frames / genSeconds).toFixed(0)} frames/s, one transaction)`);

  const store = new CaptureStore(file);
  const deps = { store, query: new CaptureQuery(store) };
  const api = new Hono();
  api.route('/', exchangeRoutes(deps));
  api.route('/', frameRoutes(deps));
  api.onError(apiErrorHandler);
  const request = async (path: string) => {
    const res = await api.request(path);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { exchanges?: unknown[]; frames?: unknown[] };
  };

  const floorSql = store.db.prepare('SELECT summary FROM exchanges ORDER BY sort_key DESC LIMIT ?');
  const floor = medianSpread(timeIt(rounds, () => floorSql.all(PAGE).map((r) => JSON.parse((r as { summary: string }).summary) as unknown)));

  const cases: { metric: string; path: string; kind: 'indexed' | 'narrowed' | 'full scan' }[] = [
    { metric: 'newest page, no filter', path: `/exchanges?limit=${PAGE}`, kind: 'indexed' },
    { metric: 'status:err', path: `/exchanges?limit=${PAGE}&filter=status:err`, kind: 'indexed' },
    { metric: 'tool:send_email status:business_error', path: `/exchanges?limit=${PAGE}&filter=${encodeURIComponent('tool:send_email status:business_error')}`, kind: 'indexed' },
    { metric: 'method:tools/* session:session-07 !status:ok', path: `/exchanges?limit=${PAGE}&filter=${encodeURIComponent('method:tools/* session:session-07 !status:ok')}`, kind: 'indexed' },
    { metric: 'code:-32602 latency>500', path: `/exchanges?limit=${PAGE}&filter=${encodeURIComponent('code:-32602 latency>500')}`, kind: 'narrowed' },
    { metric: `status:err, ${options.smoke ? 5 : 500} pages deep (before=…)`, path: '', kind: 'indexed' },
    { metric: 'frames of status:protocol_error exchanges', path: `/frames?limit=${PAGE}&after=${Math.floor(frames / 2)}&filter=${encodeURIComponent('status:protocol_error')}`, kind: 'indexed' },
    { metric: 'free text "request number 4242 " (bodies)', path: `/exchanges?limit=${PAGE}&filter=${encodeURIComponent('"request number 4242 "')}`, kind: 'full scan' },
  ];
  // A deep page: the cursor of the 1000th page of errors.
  const deep = (await request(`/exchanges?limit=${options.smoke ? 500 : 50_000}&filter=status:err`)) as { exchanges: { id: string }[] };
  const deepBefore = Number(deep.exchanges[deep.exchanges.length - 1]!.id);
  cases[5]!.path = `/exchanges?limit=${PAGE}&filter=status:err&before=${deepBefore}`;

  const rows: StoreBenchRow[] = [];
  const table: string[][] = [['bare SQL newest page (floor)', '', `${floor.median.toFixed(2)} (${floor.min.toFixed(2)}–${floor.max.toFixed(2)})`, '1.00×', '']];
  for (const c of cases) {
    let count = 0;
    const times: number[] = [];
    for (let r = 0; r < (c.kind === 'full scan' ? Math.min(rounds, 3) : rounds) + 1; r++) {
      const t = performance.now();
      const body = await request(c.path);
      if (r > 0) times.push(performance.now() - t); // the first is a warm-up
      count = (body.exchanges ?? body.frames ?? []).length;
    }
    const s = medianSpread(times);
    const budgeted = c.kind !== 'full scan';
    rows.push({
      bench: 'store query',
      metric: `${c.metric} (${c.kind}, ${frames.toLocaleString('en-US')} frames, page of ${PAGE})`,
      value: s.median,
      unit: 'ms',
      spread: s,
      baseline: { name: 'bare SQL page', value: floor.median },
      ratioAs: 'x',
      ...(budgeted ? { budget: '< 50 ms', met: s.median < 50 } : { note: 'full scan: a page stops after SCAN_TIME_MS (100 ms) with a cursor' }),
    });
    table.push([c.metric, c.kind, `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`, `${(s.median / floor.median).toFixed(1)}×`, String(count)]);
  }
  store.close();
  printTable(`Filtered pages from ${frames.toLocaleString('en-US')} frames via the API route (ms; median (min–max) of ${rounds})`, ['query', 'plan', 'ms', 'vs floor', 'rows'], table);

  // Opening the file. The generator wrote no deriver snapshot (like a file from before snapshots):
  // the first open replays every stored frame. A clean close stores a snapshot, so the next open
  // restores it; after kill -9 the last periodic snapshot is older and the frames after it replay.
  const tail = options.smoke ? 1000 : SNAPSHOT_EVERY - 1;
  const openRow = (metric: string, seconds: number, note: string): StoreBenchRow => ({ bench: 'store query', metric, value: seconds, unit: 's', note });
  const timeOpen = (after?: (pipeline: CapturePipeline) => void): number => {
    const t = performance.now();
    const reopened = new CaptureStore(file);
    const pipeline = new CapturePipeline(reopened);
    const seconds = (performance.now() - t) / 1000;
    after?.(pipeline);
    reopened.close();
    return seconds;
  };
  const cold = timeOpen((pipeline) => pipeline.close());
  const warm = timeOpen((pipeline) => {
    // Capture goes on until just before the next periodic snapshot, then the process dies.
    for (let n = 0; n < tail; n++) pipeline.record(frameInput(frames + n, 150));
    pipeline.flush();
  });
  const crashed = timeOpen((pipeline) => pipeline.close());
  const label = frames.toLocaleString('en-US');
  console.log(`open: ${cold.toFixed(1)} s replaying ${label} frames (no snapshot), ${warm.toFixed(2)} s from a clean close's snapshot, ${crashed.toFixed(2)} s after kill -9 (snapshot + ${tail} frames)`);
  rows.push(openRow(`open a ${label}-frame file with no deriver snapshot (replay every frame)`, cold, 'first open of a file from before snapshots, or with an unusable one; bounded by --max-frames'));
  rows.push(openRow(`reopen it after a clean close (restore the deriver snapshot)`, warm, 'startup cost'));
  rows.push(openRow(`reopen after kill -9 (snapshot + replay of ${tail} frames)`, crashed, 'worst case: a snapshot is written every SNAPSHOT_EVERY frames'));
  return rows;
}
