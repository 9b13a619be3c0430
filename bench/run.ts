/**
 * `pnpm bench`: runs every benchmark and prints its tables; numbers also go to bench/results/.
 * Each benchmark measures its baseline in the same run, because these machines are noisy.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchTapOverhead } from './tap-overhead.js';
import { benchTapSse } from './tap-sse.js';
import { bench as benchHubFanout } from './hub-fanout.js';
import { bench as benchStoreIngest } from './store-ingest.js';
import { bench as benchStoreQuery } from './store-query.js';
import { bench as benchStoreRss } from './store-rss.js';

const results: Record<string, unknown> = { startedAt: new Date().toISOString() };
const smoke = process.argv.includes('--smoke');
results.tapOverhead = await benchTapOverhead();
results.tapSse = await benchTapSse();
results.hubFanout = await benchHubFanout({ smoke });
results.storeIngest = await benchStoreIngest({ smoke });
results.storeQuery = await benchStoreQuery({ smoke });
results.storeRss = await benchStoreRss({ smoke });
const dir = new URL('./results/', import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
const file = `${dir}bench-${Date.now()}.json`;
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(`\nwrote ${file}`);
process.exit(0);
