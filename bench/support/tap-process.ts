/**
 * mcpscope in its own process, as a user runs it. Capture on by default, into a capture file as
 * users run it (so capture runs on its worker thread), kept on tmpfs (/dev/shm) when there is one
 * so disk speed does not enter the latency comparisons; `DB=<file>` stores there instead (the
 * large-payload benchmark: on disk), `DB=:memory:` in memory (capture on the tap's thread);
 * `MCPSCOPE_CAPTURE_THREAD=main` keeps capture on the tap's thread with a file too (what the
 * worker saves); `CAPTURE=off` records nothing, to show what capture costs.
 * `OTLP=<traces url>` streams spans there as `--otlp` does (the SDK's default batching), and on
 * SIGTERM writes the export's counts as JSON to `OTLP_STATUS=<file>`.
 * `DOOR=off` captures frames but no door records, to show what recording every HTTP request costs.
 * Prints `READY <tap origin>`.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMcpscope } from '@mcpscope/proxy/server';

const otlp = process.env.OTLP;
const ownDir = process.env.DB ? undefined : mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mcpscope-bench-'));
process.on('exit', () => ownDir && rmSync(ownDir, { recursive: true, force: true }));
const app = await startMcpscope({
  target: `${process.env.UPSTREAM!}/mcp`,
  db: process.env.DB ?? join(ownDir!, 'capture.db'),
  port: 0,
  uiPort: 0,
  capture: process.env.CAPTURE !== 'off',
  ...(otlp
    ? { otlp: { url: otlp, from: 'OTLP', protocol: 'http/protobuf', bodies: false, maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000, exporterTimeoutMillis: 10_000 } }
    : {}),
  door: process.env.DOOR !== 'off',
});
console.log(`READY ${app.tapUrl}`);
process.on('SIGTERM', () => {
  // The counts as they stand when the load ended (closing waits only briefly for the backend).
  if (process.env.OTLP_STATUS && app.otlp) writeFileSync(process.env.OTLP_STATUS, JSON.stringify(app.otlp.status()));
  void app.close().then(() => process.exit(0));
});
