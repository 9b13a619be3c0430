/**
 * mcpscope in its own process, as a user runs it. Capture on by default, into an in-memory store
 * so disk speed does not enter the latency comparisons; `DB=<file>` stores on disk (as users do,
 * and as the large-payload benchmark needs: a 50 MB frame in an in-memory store would be counted
 * as the tap's memory); `CAPTURE=off` records nothing, to show what capture costs; `DOOR=off`
 * captures frames but no door records, to show what recording every HTTP request costs.
 * Prints `READY <tap origin>`.
 */
import { startMcpscope } from '@mcpscope/proxy/server';

const app = await startMcpscope({
  target: `${process.env.UPSTREAM!}/mcp`,
  db: process.env.DB ?? ':memory:',
  port: 0,
  uiPort: 0,
  capture: process.env.CAPTURE !== 'off',
  door: process.env.DOOR !== 'off',
});
console.log(`READY ${app.tapUrl}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
