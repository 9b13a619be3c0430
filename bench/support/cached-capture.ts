/**
 * A capture file of `exchanges` tools/call exchanges with their door records
 * (support/capture-traffic.ts), built once and kept under the cache directory
 * (`$MCPSCOPE_CACHE_DIR`, else ~/.cache/mcpscope) in `bench-captures/`. A million takes minutes to
 * build, so every bench that needs one shares the file.
 *
 * The file is built through the real capture pipeline with its engine in process: the same rows
 * the tap's engine worker writes (same deriver, same tick encoding, same SQL), without the thread
 * hand-off, which at a million exchanges costs more than the writing. Its name carries a hash of
 * the code that decides its bytes: the traffic, this builder and the capture folder (schema,
 * deriving, encoding). A change to any of them builds a new file and drops the older ones.
 *
 * `checkout` (another built checkout, e.g. `BENCH_BEFORE`) writes the file with that checkout's
 * capture code (its `apps/proxy/dist`), for a build that may not read this one's layout; such
 * files are named `before-…` and kept beside this checkout's, one per size.
 *
 * Callers open the file read-only or copy it: a write would change what the next run measures.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheDir } from '@mcpscope/release/node-runtimes';
import { recordTraffic } from './capture-traffic.js';

const THIS_CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));
const BUILDER_SOURCES = [fileURLToPath(new URL('./capture-traffic.ts', import.meta.url)), fileURLToPath(import.meta.url)];

/** A hash of every file whose change could change the capture's bytes (`checkout`'s capture folder). */
function builderHash(checkout: string): string {
  const hash = createHash('sha256');
  const captureSource = join(checkout, 'apps/proxy/src/capture');
  const captureFiles = readdirSync(captureSource)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => join(captureSource, f));
  for (const file of [...BUILDER_SOURCES, ...captureFiles]) hash.update(file.slice(file.lastIndexOf('/'))).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** An older build of the same size and lineage (`prefix`), or a build whose process is gone. */
function isStale(name: string, prefix: string): boolean {
  const building = /\.building-(\d+)(-wal|-shm)?$/.exec(name);
  if (!building) return name.startsWith(prefix);
  try {
    process.kill(Number(building[1]), 0);
    return false;
  } catch {
    return true;
  }
}

export interface CachedCapture {
  file: string;
  exchanges: number;
  /** Seconds the build took in this run; 0 when the file came from the cache. */
  builtSeconds: number;
}

type CaptureModule = typeof import('@mcpscope/proxy/capture');

/** The cached capture of `exchanges` exchanges, building it first if this code (or `checkout`'s) has none yet. */
export async function cachedCapture(exchanges: number, checkout?: string): Promise<CachedCapture> {
  const dir = join(cacheDir(), 'bench-captures');
  mkdirSync(dir, { recursive: true });
  const prefix = `${checkout ? 'before' : 'capture'}-${exchanges}-`;
  const name = `${prefix}${builderHash(checkout ?? THIS_CHECKOUT)}.db`;
  const file = join(dir, name);
  if (existsSync(file)) return { file, exchanges, builtSeconds: 0 };

  const started = performance.now();
  const building = `${file}.building-${process.pid}`;
  // Another checkout's pipeline and store take the same calls (the traffic's sink, close).
  const { CapturePipeline, CaptureStore }: CaptureModule = checkout ? await import(pathToFileURL(join(checkout, 'apps/proxy/dist/capture/index.js')).href) : await import('@mcpscope/proxy/capture');
  const store = new CaptureStore(building);
  const pipeline = new CapturePipeline(store, {}, undefined, undefined, { engine: 'in-process' });
  await pipeline.started();
  if (exchanges > 0) recordTraffic(pipeline, exchanges);
  pipeline.close();
  store.close();
  // Closing checkpoints the WAL into the file, so the file alone is the capture.
  if (existsSync(`${building}-wal`) && statSync(`${building}-wal`).size > 0) throw new Error(`${building}: the WAL was not checkpointed on close`);
  for (const side of ['-wal', '-shm']) rmSync(building + side, { force: true });
  renameSync(building, file);
  for (const old of readdirSync(dir)) if (old !== name && isStale(old, prefix)) rmSync(join(dir, old), { force: true });
  return { file, exchanges, builtSeconds: (performance.now() - started) / 1000 };
}
