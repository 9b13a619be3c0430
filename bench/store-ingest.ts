/**
 * Capture ingest: frames per second through the real pipeline (redaction, derive, one
 * transaction per tick with frames + exchanges + sessions + diagnostics + frame links, retention
 * accounting) into a WAL file, beside two baselines from the same run: a bare INSERT of the same
 * frames into one bare table of a capture file opened the same way (the SQLite floor), and the deriver alone
 * (no disk). Ticks hold 256 frames, about what a busy tap hands over per event-loop turn.
 */
import { CaptureDeriver, type Frame } from '@mcpscope/protocol';
import { CapturePipeline, CaptureStore } from '@mcpscope/proxy/capture';
import { printTable } from './stats.js';
import { frameInput, medianSpread, tempDb, type StoreBenchOptions, type StoreBenchRow } from './store-common.js';

const TICK = 256;
/** Answers come 150 requests after their request: in a later tick, as on a real tap. */
const LAG = 150;

function pipelineRate(frames: number): number {
  const store = new CaptureStore(tempDb('ingest'));
  const pipeline = new CapturePipeline(store);
  const started = performance.now();
  for (let n = 0; n < frames; n++) {
    pipeline.record(frameInput(n, LAG));
    if (n % TICK === TICK - 1) pipeline.flush();
  }
  pipeline.flush();
  const seconds = (performance.now() - started) / 1000;
  store.close();
  return frames / seconds;
}

function bareInsertRate(frames: number): number {
  // A capture file opened the same way (lock, WAL, pragmas), but written into one bare table.
  const store = new CaptureStore(tempDb('bare'));
  const db = store.db;
  db.exec('CREATE TABLE bare_frames (seq INTEGER PRIMARY KEY, ts REAL, session_key TEXT, direction TEXT, transport TEXT, kind TEXT, raw TEXT, http TEXT)');
  const insert = db.prepare('INSERT INTO bare_frames VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const write = db.transaction((batch: Frame[]) => {
    for (const f of batch) insert.run(f.seq, f.ts, f.sessionKey, f.direction, f.transport, f.kind, f.raw, JSON.stringify(f.http));
  });
  const started = performance.now();
  let batch: Frame[] = [];
  for (let n = 0; n < frames; n++) {
    batch.push({ ...frameInput(n, LAG), seq: n + 1 });
    if (batch.length === TICK) {
      write(batch);
      batch = [];
    }
  }
  write(batch);
  const seconds = (performance.now() - started) / 1000;
  store.close();
  return frames / seconds;
}

function deriveRate(frames: number): number {
  const deriver = new CaptureDeriver();
  const started = performance.now();
  for (let n = 0; n < frames; n++) deriver.ingest({ ...frameInput(n, LAG), seq: n + 1 });
  return frames / ((performance.now() - started) / 1000);
}

export async function bench(options: StoreBenchOptions): Promise<StoreBenchRow[]> {
  const sized = options as StoreBenchOptions & { frames?: number; rounds?: number };
  const frames = sized.frames ?? (options.smoke ? 5_000 : 200_000);
  const rounds = sized.rounds ?? (options.smoke ? 1 : 3);
  const pipe: number[] = [];
  const bare: number[] = [];
  const derive: number[] = [];
  for (let r = 0; r < rounds; r++) {
    bare.push(bareInsertRate(frames));
    pipe.push(pipelineRate(frames));
    derive.push(deriveRate(frames));
  }
  const p = medianSpread(pipe);
  const b = medianSpread(bare);
  const d = medianSpread(derive);
  printTable(`Capture ingest, ${frames} frames × ${rounds} rounds, ${TICK} frames per tick (frames/s; median (min–max))`, ['path', 'frames/s', 'vs bare INSERT'], [
    ['bare INSERT (floor)', `${b.median.toFixed(0)} (${b.min.toFixed(0)}–${b.max.toFixed(0)})`, '100 %'],
    ['deriver only (no disk)', `${d.median.toFixed(0)} (${d.min.toFixed(0)}–${d.max.toFixed(0)})`, ''],
    ['full pipeline', `${p.median.toFixed(0)} (${p.min.toFixed(0)}–${p.max.toFixed(0)})`, `${((p.median / b.median) * 100).toFixed(1)} %`],
  ]);
  return [
    {
      bench: 'store ingest',
      metric: `frames/s, full pipeline into a WAL file (${frames} frames, ${TICK}/tick)`,
      value: p.median,
      unit: 'frames/s',
      spread: p,
      baseline: { name: 'bare INSERT', value: b.median },
      ratioAs: '%',
      budget: '≥ 20,000 frames/s',
      met: p.median >= 20_000,
    },
    { bench: 'store ingest', metric: 'frames/s, deriver alone (no disk)', value: d.median, unit: 'frames/s', spread: d, baseline: { name: 'bare INSERT', value: b.median }, ratioAs: '%' },
  ];
}
