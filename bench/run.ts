/**
 * `pnpm bench`: runs every benchmark and prints its tables; numbers also go to bench/results/.
 * Each benchmark measures its baseline in the same run, because these machines are noisy.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchTapOverhead } from './tap-overhead.js';
import { benchTapSse } from './tap-sse.js';

const results: Record<string, unknown> = { startedAt: new Date().toISOString() };
results.tapOverhead = await benchTapOverhead();
results.tapSse = await benchTapSse();
const dir = new URL('./results/', import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
const file = `${dir}bench-${Date.now()}.json`;
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`\nwrote ${file}`);
process.exit(0);
