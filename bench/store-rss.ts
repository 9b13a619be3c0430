/**
 * Memory while the store grows: a child process (so nothing else in `pnpm bench` pollutes its
 * heap) ingests frames through the real pipeline into a capture file and reports its RSS and JS
 * heap after a full GC at ten checkpoints. The capture lives on disk, so memory should stay flat:
 * the baseline is the first checkpoint of the same run, and the budget is the last one staying
 * within 1.25× of it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { printTable } from './stats.js';
import { frameInput, tempDb, type StoreBenchOptions, type StoreBenchRow } from './store-common.js';

interface Sample {
  frames: number;
  rssMb: number;
  heapMb: number;
}

const CHILD_ENV = 'MCPSCOPE_BENCH_RSS_CHILD';

async function child(frames: number): Promise<void> {
  const { CapturePipeline, CaptureStore } = await import('@mcpscope/proxy/capture');
  const store = new CaptureStore(tempDb('rss'));
  const pipeline = new CapturePipeline(store);
  const gc = (globalThis as { gc?: () => void }).gc!;
  const samples: Sample[] = [];
  const every = frames / 10;
  for (let n = 0; n < frames; n++) {
    pipeline.record(frameInput(n, 150));
    if (n % 256 === 255) pipeline.flush();
    if ((n + 1) % every === 0) {
      pipeline.flush();
      gc();
      const m = process.memoryUsage();
      samples.push({ frames: n + 1, rssMb: m.rss / 2 ** 20, heapMb: m.heapUsed / 2 ** 20 });
    }
  }
  store.close();
  process.stdout.write(JSON.stringify(samples));
}

export async function bench(options: StoreBenchOptions): Promise<StoreBenchRow[]> {
  const frames = options.smoke ? 20_000 : 500_000;
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url)], {
      env: { ...process.env, [CHILD_ENV]: String(frames) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`RSS child exited with ${code}`))));
  });
  const samples = JSON.parse(out) as Sample[];
  printTable(`Memory while the capture grows to ${frames.toLocaleString('en-US')} frames (after a full GC)`, ['frames stored', 'RSS MB', 'JS heap MB'], samples.map((s) => [s.frames, s.rssMb.toFixed(1), s.heapMb.toFixed(1)]));
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  return [
    {
      bench: 'store memory',
      metric: `RSS after ${last.frames.toLocaleString('en-US')} frames (file-backed store)`,
      value: last.rssMb,
      unit: 'MB',
      baseline: { name: `RSS at ${first.frames.toLocaleString('en-US')} frames`, value: first.rssMb },
      ratioAs: 'x',
      budget: 'flat: ≤ 1.25× the first checkpoint',
      met: last.rssMb <= first.rssMb * 1.25,
    },
    {
      bench: 'store memory',
      metric: `JS heap after ${last.frames.toLocaleString('en-US')} frames`,
      value: last.heapMb,
      unit: 'MB',
      baseline: { name: `heap at ${first.frames.toLocaleString('en-US')} frames`, value: first.heapMb },
      ratioAs: 'x',
    },
  ];
}

if (process.env[CHILD_ENV]) await child(Number(process.env[CHILD_ENV]));
