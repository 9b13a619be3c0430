/**
 * mcpscope in its own process, as a user runs it. Capture on by default, into an in-memory store
 * so disk speed does not enter the latency comparisons; `DB=<file>` stores on disk (as users do,
 * and as the large-payload benchmark needs: a 50 MB frame in an in-memory store would be counted
 * as the tap's memory); `CAPTURE=off` records nothing, to show what capture costs.
 * `OTLP=<traces url>` streams spans there as `--otlp` does (the SDK's default batching), and on
 * SIGTERM writes the export's counts as JSON to `OTLP_STATUS=<file>`.
 * `DOOR=off` captures frames but no door records, to show what recording every HTTP request costs.
 * `RULES=<rule>\n<rule>…` starts with those intercept rules (`--rule`).
 * Prints `READY <tap origin>`.
 */
import { writeFileSync } from 'node:fs';
import { startMcpscope } from '@mcpscope/proxy/server';

const otlp = process.env.OTLP;
const app = await startMcpscope({
  target: `${process.env.UPSTREAM!}/mcp`,
  db: process.env.DB ?? ':memory:',
  port: 0,
  uiPort: 0,
  capture: process.env.CAPTURE !== 'off',
  ...(otlp
    ? { otlp: { url: otlp, from: 'OTLP', protocol: 'http/protobuf', bodies: false, maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000, exporterTimeoutMillis: 10_000 } }
    : {}),
  door: process.env.DOOR !== 'off',
  ...(process.env.RULES ? { rules: process.env.RULES.split('\n') } : {}),
});
console.log(`READY ${app.tapUrl}`);
process.on('SIGTERM', () => {
  // The counts as they stand when the load ended (closing waits only briefly for the backend).
  if (process.env.OTLP_STATUS && app.otlp) writeFileSync(process.env.OTLP_STATUS, JSON.stringify(app.otlp.status()));
  void app.close().then(() => process.exit(0));
});
