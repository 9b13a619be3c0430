/** The embedded demo server (an official-SDK server, stateful, SSE answers) in its own process. */
import { startDemoServer } from '@mcpscope/proxy/demo';

const demo = await startDemoServer();
console.log(`READY ${new URL(demo.url).origin}`);
process.on('SIGTERM', () => void demo.close().then(() => process.exit(0)));
