/**
 * mcpscope in its own process, as a user runs it, with capture on (an in-memory store, so disk
 * speed does not enter the comparison). Prints `READY <tap origin>`.
 */
import { startMcpscope } from '@mcpscope/proxy/server';

const app = await startMcpscope({ target: `${process.env.UPSTREAM!}/mcp`, db: ':memory:', port: 0, uiPort: 0 });
console.log(`READY ${app.tapUrl}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
