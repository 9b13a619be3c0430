/**
 * The floor for this stack as a path starter: a bare Hono reverse proxy (`hono/proxy` on
 * @hono/node-server, support/hono-pass-through.ts) with no capture, in its own process like every
 * other path. Whatever mcpscope adds above this row is the cost of capture and of our own
 * forwarding code, not of Hono or Node.
 */
import { startHelper } from './support/processes.js';

export interface BenchPath {
  /** The origin a client sends its MCP POSTs to (the endpoint is `${origin}/mcp`). */
  origin: string;
  close(): Promise<void>;
}

export async function startHonoPassthrough(upstreamOrigin: string): Promise<BenchPath> {
  const helper = await startHelper('./hono-pass-through.ts', { UPSTREAM: upstreamOrigin });
  return { origin: helper.origin, close: () => helper.stop() };
}
